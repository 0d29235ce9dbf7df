import * as vscode from 'vscode';
import type { ModelChoices } from './models';

/** A guided set-up for a model: Copilot, an OpenAI-compatible endpoint (Ollama...), or Anthropic. */
export async function setupModel(models: ModelChoices): Promise<void> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: 'Copilot or another VS Code language model', description: 'no key needed if you are signed in', id: 'vscode' },
      { label: 'OpenAI-compatible endpoint', description: 'OpenAI, Ollama, LM Studio, vLLM, OpenRouter', id: 'openai' },
      { label: 'Anthropic', id: 'anthropic' },
    ],
    { title: 'MinAgent: Set Up a Model' },
  );
  if (!pick) return;
  const config = vscode.workspace.getConfiguration('minagent.chat');
  const target = vscode.ConfigurationTarget.Global;
  if (pick.id === 'vscode') {
    // Never trades a working model for none: the provider setting is left as it is (VS Code's models are
    // always offered beside it), and without any VS Code model nothing changes at all.
    await models.refresh();
    const lm = models.list().find((m) => m.id.startsWith('lm:'));
    if (!lm) {
      const current = models.list().find((m) => m.id === models.selected());
      void vscode.window.showWarningMessage(`No VS Code language model is available: sign in to Copilot, or install an extension that provides one. ${current ? `MinAgent keeps using ${current.label}.` : 'Nothing was changed.'}`);
      return;
    }
    await models.select(lm.id);
    void vscode.window.showInformationMessage(`MinAgent now uses ${lm.label}. Other VS Code models are in the chat's model picker.`);
    return;
  }
  const baseUrl = await vscode.window.showInputBox({
    title: 'Base URL',
    // Prefilled from the user's own settings only: a workspace must not suggest where a key goes.
    value: config.inspect<string>('baseUrl')?.globalValue || (pick.id === 'openai' ? 'http://localhost:11434/v1' : 'https://api.anthropic.com'),
    prompt: pick.id === 'openai' ? 'Ollama: http://localhost:11434/v1 · OpenAI: https://api.openai.com/v1' : 'Anthropic Messages API',
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        new URL(v);
        return undefined;
      } catch {
        return 'Enter a URL such as http://localhost:11434/v1';
      }
    },
  });
  if (baseUrl === undefined) return;
  const model = await vscode.window.showInputBox({ title: 'Model name', value: config.inspect<string>('model')?.globalValue ?? '', prompt: 'e.g. llama3.1, gpt-4o-mini, claude-sonnet-4-5', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A model name is required') });
  if (model === undefined) return;
  await config.update('provider', pick.id, target);
  await config.update('baseUrl', baseUrl, target);
  await config.update('model', model.trim(), target);
  await models.select(pick.id);
  const wantsKey = await vscode.window.showQuickPick(['Set an API key now', 'No key needed (e.g. Ollama)'], { title: 'API key' });
  if (wantsKey === 'Set an API key now') await models.setApiKey();
}
