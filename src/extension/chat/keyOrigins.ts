import * as vscode from 'vscode';
import { DEFAULT_BASE_URLS } from '../../core/models/factory';
import { checkOrigin, keyOriginFor, type OriginCheck } from '../../core/models/origins';

type Provider = 'openai' | 'anthropic';
const LABEL: Record<Provider, string> = { openai: 'OpenAI-compatible', anthropic: 'Anthropic' };
const keyName = (p: Provider) => `minagent.apiKey.${p}`;
const originKey = (p: Provider) => `minagent.apiKeyOrigin.${p}`;
const confirmedKey = (p: Provider) => `minagent.confirmedOrigins.${p}`;
const keylessKey = (p: Provider) => `minagent.keylessOrigins.${p}`;

/**
 * Provider keys and the origins they may go to. A key is bound to the origin it was stored for
 * (the user-scope base URL, or the vendor's default; never a workspace value); any other origin,
 * and plain http beyond this machine, needs the user's confirmation in a modal naming the host,
 * remembered per origin (both "send the key" and "go without it"; storing a key again forgets
 * them). The policy itself is `checkOrigin` in the core.
 */
export class KeyOrigins {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  /** Where a key entered now belongs: the user's own base URL for this provider, else the vendor's. */
  userOrigin(provider: Provider): string {
    const c = vscode.workspace.getConfiguration('minagent.chat');
    const user = { provider: c.inspect<string>('provider')?.globalValue, baseUrl: c.inspect<string>('baseUrl')?.globalValue };
    return keyOriginFor(provider, DEFAULT_BASE_URLS[provider], { ...(user.provider ? { provider: user.provider } : {}), ...(user.baseUrl ? { baseUrl: user.baseUrl } : {}) });
  }

  async store(provider: Provider, key: string, origin: string): Promise<void> {
    await this.secrets.store(keyName(provider), key);
    await this.state.update(originKey(provider), origin);
    await this.forgetAnswers(provider);
  }

  async delete(provider: Provider): Promise<void> {
    await this.secrets.delete(keyName(provider));
    await this.state.update(originKey(provider), undefined);
    await this.forgetAnswers(provider);
  }

  private async forgetAnswers(provider: Provider): Promise<void> {
    await this.state.update(confirmedKey(provider), undefined);
    await this.state.update(keylessKey(provider), undefined);
  }

  /**
   * The key for a request to `baseUrl` when it may carry it, else undefined (the request goes
   * without). Asks the user when the origin needs it; throws when the user sends nothing.
   */
  async keyFor(provider: Provider, baseUrl: string): Promise<string | undefined> {
    const key = await this.secrets.get(keyName(provider));
    const keyOrigin = key ? await this.boundOrigin(provider) : undefined;
    const confirmed = this.state.get<string[]>(confirmedKey(provider), []);
    const check = this.check(provider, baseUrl, keyOrigin, confirmed);
    switch (check.kind) {
      case 'invalid':
        throw new Error(`"minagent.chat.baseUrl": ${check.message}`);
      case 'ok':
        return key;
      case 'confirm': {
        const keyless = this.state.get<string[]>(keylessKey(provider), []);
        if (keyless.includes(check.origin)) return undefined;
        const choice = await this.ask(provider, check, keyOrigin);
        if (choice === 'confirm') {
          await this.state.update(confirmedKey(provider), [...confirmed, check.origin]);
          return key;
        }
        if (choice === 'withoutKey') {
          await this.state.update(keylessKey(provider), [...keyless, check.origin]);
          return undefined;
        }
        throw new Error(`Not sent: you did not confirm ${check.host}. Point "minagent.chat.baseUrl" at an address you trust, or send again to be asked again.`);
      }
    }
  }

  /**
   * Whether anything (a probe included) may go to `baseUrl` now, without asking: the origin needs no
   * confirmation, or the user already answered for it. The budget meter measures only then.
   */
  async mayContact(provider: Provider, baseUrl: string): Promise<boolean> {
    const key = await this.secrets.get(keyName(provider));
    const keyOrigin = key ? this.state.get<string>(originKey(provider)) ?? this.userOrigin(provider) : undefined;
    const check = this.check(provider, baseUrl, keyOrigin, this.state.get<string[]>(confirmedKey(provider), []));
    return check.kind === 'ok' || (check.kind === 'confirm' && this.state.get<string[]>(keylessKey(provider), []).includes(check.origin));
  }

  private check(provider: Provider, baseUrl: string, keyOrigin: string | undefined, confirmed: string[]): OriginCheck {
    return checkOrigin({ baseUrl, ...(keyOrigin ? { keyOrigin } : {}), confirmed, fromWorkspace: this.baseUrlFromWorkspace(), userOrigin: this.userOrigin(provider) });
  }

  /** Whether the chat's base URL is a trusted workspace's choice (an untrusted one's settings are ignored). */
  private baseUrlFromWorkspace(): boolean {
    const inspected = vscode.workspace.getConfiguration('minagent.chat').inspect<string>('baseUrl');
    return vscode.workspace.isTrusted && (inspected?.workspaceFolderValue ?? inspected?.workspaceValue) !== undefined;
  }

  /** The origin the stored key is bound to; a key stored before binding existed is bound now, once. */
  private async boundOrigin(provider: Provider): Promise<string> {
    const bound = this.state.get<string>(originKey(provider));
    if (bound) return bound;
    const origin = this.userOrigin(provider);
    await this.state.update(originKey(provider), origin);
    void vscode.window.showInformationMessage(`MinAgent: your stored ${LABEL[provider]} API key is now bound to ${origin}; a request to another address asks you first.`);
    return origin;
  }

  private async ask(provider: Provider, check: Extract<OriginCheck, { kind: 'confirm' }>, keyOrigin: string | undefined): Promise<'confirm' | 'withoutKey' | undefined> {
    const where = this.baseUrlFromWorkspace() ? "this workspace's settings" : 'your settings';
    const plain = check.reasons.includes('plainHttp') ? ` The connection to ${check.host} is plain http: what you send travels unencrypted.` : '';
    if (check.reasons.includes('key')) {
      const send = `Send Key to ${check.host}`;
      const without = 'Continue Without Key';
      const answer = await vscode.window.showWarningMessage(
        `Send your ${LABEL[provider]} API key to ${check.host}?`,
        { modal: true, detail: `The key was stored for ${keyOrigin}. The chat's base URL, from ${where}, points at ${check.origin}. Send the key only if you trust ${check.host}; MinAgent remembers this for ${check.origin}.${plain}` },
        // The safe answer first: it is the default button, so a stray Enter sends no key.
        without,
        send,
      );
      return answer === send ? 'confirm' : answer === without ? 'withoutKey' : undefined;
    }
    const allow = `Allow ${check.host}`;
    const chosen = check.reasons.includes('workspace')
      ? `This workspace's settings point the chat at ${check.origin}: everything you send goes there, tool results included, and nothing has gone there yet.${plain} Allow it only if ${check.host} is yours or you trust it; MinAgent remembers this for ${check.origin}.`
      : `The chat's base URL, from ${where}, is ${check.origin}.${plain} Allow it if ${check.host} is yours (a LAN Ollama, vLLM in Docker); MinAgent remembers this for ${check.origin}.`;
    const answer = await vscode.window.showWarningMessage(check.reasons.includes('workspace') ? `Send this chat to ${check.host}?` : `Send the chat to ${check.host} over plain http?`, { modal: true, detail: chosen }, allow);
    return answer === allow ? 'confirm' : undefined;
  }
}
