import * as vscode from 'vscode';
import { DEFAULT_BASE_URLS } from '../../core/models/factory';
import { checkOrigin, keyOriginFor, originOf, type OriginCheck } from '../../core/models/origins';

type Provider = 'openai' | 'anthropic';

/** Where a request goes: its base URL, whether a (trusted) workspace chose it, and the setting that says so. */
export interface Destination {
  baseUrl: string;
  fromWorkspace: boolean;
  setting: string;
}
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
  /** `userBaseUrls`: the user's own base URLs for a provider (user settings only, never a workspace's). */
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly userBaseUrls: (provider: Provider) => string[],
  ) {}

  /**
   * Where a key entered now belongs: `preferred` (the user's model being set up), else the user's first base URL for
   * this provider, else the vendor's.
   */
  userOrigin(provider: Provider, preferred?: string): string {
    return keyOriginFor(DEFAULT_BASE_URLS[provider], [
      ...(preferred ? [preferred] : []),
      ...this.userBaseUrls(provider),
    ]);
  }

  /**
   * The stored key when it is bound to exactly this origin (for listing the endpoint's models), else undefined; never
   * asks.
   */
  async keyBoundTo(provider: Provider, baseUrl: string): Promise<string | undefined> {
    const origin = originOf(baseUrl);
    return origin && this.state.get<string>(originKey(provider)) === origin
      ? this.secrets.get(keyName(provider))
      : undefined;
  }

  /** The origin the stored key is bound to, if there is a key. */
  async keyOrigin(provider: Provider): Promise<string | undefined> {
    return (await this.secrets.get(keyName(provider))) ? this.boundOrigin(provider) : undefined;
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
  async keyFor(provider: Provider, to: Destination): Promise<string | undefined> {
    const key = await this.secrets.get(keyName(provider));
    const keyOrigin = key ? await this.boundOrigin(provider) : undefined;
    const confirmed = this.state.get<string[]>(confirmedKey(provider), []);
    const check = this.check(provider, to, keyOrigin, confirmed);
    switch (check.kind) {
      case 'invalid':
        throw new Error(`"${to.setting}": ${check.message}`);
      case 'ok':
        return key;
      case 'confirm': {
        const keyless = this.state.get<string[]>(keylessKey(provider), []);
        if (keyless.includes(check.origin)) return undefined;
        const choice = await this.ask(provider, check, keyOrigin, to.fromWorkspace);
        if (choice === 'confirm') {
          await this.state.update(confirmedKey(provider), [...confirmed, check.origin]);
          return key;
        }
        if (choice === 'withoutKey') {
          await this.state.update(keylessKey(provider), [...keyless, check.origin]);
          return undefined;
        }
        throw new Error(
          `Not sent: you did not confirm ${check.host}. Point "${to.setting}" at an address you trust, or send again to be asked again.`,
        );
      }
    }
  }

  /**
   * Whether anything (a probe included) may go to `baseUrl` now, without asking: the origin needs no
   * confirmation, or the user already answered for it. The budget meter measures only then.
   */
  async mayContact(provider: Provider, to: Destination): Promise<boolean> {
    const key = await this.secrets.get(keyName(provider));
    const keyOrigin = key ? (this.state.get<string>(originKey(provider)) ?? this.userOrigin(provider)) : undefined;
    const check = this.check(provider, to, keyOrigin, this.state.get<string[]>(confirmedKey(provider), []));
    return (
      check.kind === 'ok' ||
      (check.kind === 'confirm' && this.state.get<string[]>(keylessKey(provider), []).includes(check.origin))
    );
  }

  private check(provider: Provider, to: Destination, keyOrigin: string | undefined, confirmed: string[]): OriginCheck {
    // The user's own origins: every base URL of theirs for this provider, else the vendor's.
    const urls = this.userBaseUrls(provider);
    const userOrigins = (urls.length ? urls : [DEFAULT_BASE_URLS[provider]]).flatMap((u) => originOf(u) ?? []);
    return checkOrigin({
      baseUrl: to.baseUrl,
      ...(keyOrigin ? { keyOrigin } : {}),
      confirmed,
      fromWorkspace: to.fromWorkspace,
      userOrigins,
    });
  }

  /** The origin the stored key is bound to; a key stored before binding existed is bound now, once. */
  private async boundOrigin(provider: Provider): Promise<string> {
    const bound = this.state.get<string>(originKey(provider));
    if (bound) return bound;
    const origin = this.userOrigin(provider);
    await this.state.update(originKey(provider), origin);
    void vscode.window.showInformationMessage(
      `MinAgent: your stored ${LABEL[provider]} API key is now bound to ${origin}; a request to another address asks you first.`,
    );
    return origin;
  }

  private async ask(
    provider: Provider,
    check: Extract<OriginCheck, { kind: 'confirm' }>,
    keyOrigin: string | undefined,
    fromWorkspace: boolean,
  ): Promise<'confirm' | 'withoutKey' | undefined> {
    const where = fromWorkspace ? "this workspace's settings" : 'your settings';
    const plain = check.reasons.includes('plainHttp')
      ? ` The connection to ${check.host} is plain http: what you send travels unencrypted.`
      : '';
    if (check.reasons.includes('key')) {
      const send = `Send Key to ${check.host}`;
      const without = 'Continue Without Key';
      const answer = await vscode.window.showWarningMessage(
        `Send your ${LABEL[provider]} API key to ${check.host}?`,
        {
          modal: true,
          detail: `The key was stored for ${keyOrigin}. The chat's base URL, from ${where}, points at ${check.origin}. Send the key only if you trust ${check.host}; MinAgent remembers this for ${check.origin}.${plain}`,
        },
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
    const answer = await vscode.window.showWarningMessage(
      check.reasons.includes('workspace')
        ? `Send this chat to ${check.host}?`
        : `Send the chat to ${check.host} over plain http?`,
      { modal: true, detail: chosen },
      allow,
    );
    return answer === allow ? 'confirm' : undefined;
  }
}
