import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { parseScript, type ChatModel } from '../../core/agent/model';
import { createModel, DEFAULT_BASE_URLS } from '../../core/models/factory';
import type { ModelChoice } from '../../shared/protocol';
import { ignoredNotice, setting, workspaceMinagentKeys } from '../trustedSettings';
import { KeyOrigins } from './keyOrigins';
import { LanguageModelAdapter } from './lmModel';

const SELECTED_KEY = 'minagent.chat.selectedModel';

export const SETUP_HINT =
  'No model is available. Use Copilot (or any extension that provides a VS Code language model); or set "minagent.chat.provider" to "openai" with "minagent.chat.baseUrl" (for Ollama: http://localhost:11434/v1) and "minagent.chat.model"; or to "anthropic" with a model and an API key (MinAgent: Set API Key).';

/** The models the picker offers: vscode.lm models, plus the provider configured in settings. */
export class ModelChoices {
  private lmModels: vscode.LanguageModelChat[] = [];
  private ignored: string[] = [];
  private readonly keys: KeyOrigins;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
    globalState: vscode.Memento,
  ) {
    this.keys = new KeyOrigins(secrets, globalState);
  }

  async refresh(): Promise<void> {
    try {
      this.lmModels = await vscode.lm.selectChatModels();
    } catch {
      this.lmModels = [];
    }
    this.ignored = vscode.workspace.isTrusted ? [] : await workspaceMinagentKeys().catch(() => []);
  }

  /** Says which workspace settings an untrusted window ignores, or undefined. */
  trustNotice(): string | undefined {
    return ignoredNotice(this.ignored);
  }

  list(): ModelChoice[] {
    const out: ModelChoice[] = this.lmModels.map((m) => ({ id: `lm:${m.id}`, label: `${m.name} (${m.vendor})`, detail: `vscode.lm: ${m.family}` }));
    const provider = setting<string>('chat.provider', 'vscode');
    const model = setting<string>('chat.model', '');
    if ((provider === 'openai' || provider === 'anthropic') && model) {
      const baseUrl = setting<string>('chat.baseUrl', '') || DEFAULT_BASE_URLS[provider];
      out.push({ id: provider, label: `${model} · ${hostOf(baseUrl)}`, detail: `${provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} at ${baseUrl}` });
    }
    const scriptFile = setting<string>('chat.scriptFile', '');
    if (provider === 'scripted' && scriptFile) out.push({ id: 'scripted', label: 'Scripted replies', detail: scriptFile });
    return out;
  }

  selected(): string | undefined {
    const choices = this.list();
    const stored = this.memento.get<string>(SELECTED_KEY);
    const configured = setting<string>('chat.provider', 'vscode');
    return choices.find((m) => m.id === stored)?.id ?? choices.find((m) => m.id === configured)?.id ?? choices[0]?.id;
  }

  select(id: string): Thenable<void> {
    return this.memento.update(SELECTED_KEY, id);
  }

  /**
   * The selected model, ready to call; throws a message saying what is missing. With `withKey`
   * false (the budget meter, which only counts and asks the window), no key is looked up, so
   * measuring never shows the key-origin modal and never carries a key; and the window is asked of
   * the server (Ollama's probe) only when its origin may be reached without asking.
   */
  async create({ withKey = true }: { withKey?: boolean } = {}): Promise<ChatModel> {
    const id = this.selected();
    if (!id) throw new Error(SETUP_HINT);
    if (id.startsWith('lm:')) {
      const lm = this.lmModels.find((m) => `lm:${m.id}` === id);
      if (!lm) throw new Error(`the model ${id.slice(3)} is no longer available`);
      return new LanguageModelAdapter(lm);
    }
    const configured = setting<number>('chat.contextWindow', 0);
    const window = Number.isInteger(configured) && configured > 0 ? { contextWindow: configured } : {};
    if (id === 'scripted') {
      const file = resolvePath(setting<string>('chat.scriptFile', ''));
      return createModel({ provider: 'scripted', script: parseScript(JSON.parse(readFileSync(file, 'utf8')), file), ...window });
    }
    const provider = id as 'openai' | 'anthropic';
    const baseUrl = setting<string>('chat.baseUrl', '') || DEFAULT_BASE_URLS[provider];
    // The key goes only to the origin it was stored for, or one the user confirms now.
    const apiKey = withKey ? await this.keys.keyFor(provider, baseUrl) : undefined;
    const common = { baseUrl, model: setting<string>('chat.model', ''), ...(apiKey ? { apiKey } : {}), ...window };
    const maxTokens = setting<number>('chat.maxOutputTokens', 0);
    const probe = withKey || (await this.keys.mayContact(provider, baseUrl)) ? {} : { probeWindow: false };
    return provider === 'openai' ? createModel({ provider, ...common, sendImages: setting('chat.sendImages', false), ...probe }) : createModel({ provider, ...common, ...(maxTokens > 0 ? { maxTokens } : {}) });
  }

  /** Asks for a provider's key and keeps it in SecretStorage (never in settings or logs), bound to one origin. */
  async setApiKey(): Promise<void> {
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'OpenAI-compatible', description: 'OpenAI, OpenRouter, vLLM, LM Studio, Ollama…', provider: 'openai' as const },
        { label: 'Anthropic', provider: 'anthropic' as const },
      ],
      { title: 'MinAgent: Set API Key', placeHolder: 'Which provider is the key for?' },
    );
    if (!pick) return;
    const origin = this.keys.userOrigin(pick.provider);
    const key = await vscode.window.showInputBox({ title: `API key for ${pick.label}`, password: true, ignoreFocusOut: true, prompt: `Kept in VS Code's secret storage and sent only to ${origin} (your user settings' base URL); another address asks first. Leave empty to remove the key.` });
    if (key === undefined) return;
    if (key) await this.keys.store(pick.provider, key, origin);
    else await this.keys.delete(pick.provider);
    vscode.window.setStatusBarMessage(key ? `MinAgent: key for ${pick.label} saved` : `MinAgent: key for ${pick.label} removed`, 3_000);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function resolvePath(p: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const expanded = folder ? p.replace('${workspaceFolder}', folder) : p;
  return isAbsolute(expanded) || !folder ? expanded : join(folder, expanded);
}
