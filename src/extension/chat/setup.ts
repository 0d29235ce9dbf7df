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
    await config.update('provider', 'vscode', target);
    void vscode.window.showInformationMessage('MinAgent lists the models VS Code offers (for example Copilot once you are signed in) in the chat\'s model picker.');
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
  const wantsKey = await vscode.window.showQuickPick(['Set an API key now', 'No key needed (e.g. Ollama)'], { title: 'API key' });
  if (wantsKey === 'Set an API key now') await models.setApiKey();
}
