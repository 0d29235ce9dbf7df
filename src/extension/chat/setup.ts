import * as vscode from 'vscode';
import { baseUrlProblem, entryId, entryLabel, normaliseBaseUrl } from '../../core/models/modelList';
import { pickEndpointModel, typeModelName } from './modelNamePick';
import { addUserModel } from './modelSettings';
import type { ModelChoices } from './models';

/**
 * A guided set-up for a model: Copilot, an OpenAI-compatible endpoint (Ollama...), or Anthropic. An
 * endpoint's model is added to the user's list (an identical one is reused), selected, and named in
 * a notification; the models already there stay.
 */
export async function setupModel(models: ModelChoices): Promise<void> {
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: 'Copilot or another VS Code language model',
        description: 'no key needed if you are signed in',
        id: 'vscode',
      },
      { label: 'OpenAI-compatible endpoint', description: 'OpenAI, Ollama, LM Studio, vLLM, OpenRouter', id: 'openai' },
      { label: 'Anthropic', id: 'anthropic' },
    ],
    { title: 'MinAgent: Set Up a Model' },
  );
  if (!pick) return;
  if (pick.id === 'vscode') {
    // Never trades a working model for none: the provider setting is left as it is (VS Code's models are
    // always offered beside it), and without any VS Code model nothing changes at all.
    await models.refresh();
    const lm = models.list().find((m) => m.id.startsWith('lm:'));
    if (!lm) {
      const current = models.list().find((m) => m.id === models.selected());
      void vscode.window.showWarningMessage(
        `No VS Code language model is available: sign in to Copilot, or install an extension that provides one. ${current ? `MinAgent keeps using ${current.label}.` : 'Nothing was changed.'}`,
      );
      return;
    }
    await models.select(lm.id);
    void vscode.window.showInformationMessage(
      `MinAgent now uses ${lm.label}. Other VS Code models are in the chat's model picker.`,
    );
    return;
  }
  const provider = pick.id as 'openai' | 'anthropic';
  const typed = await vscode.window.showInputBox({
    title: 'Base URL',
    // The user's own from before (their last run, their settings), else Ollama's or Anthropic's.
    value: models.setupBaseUrl(provider),
    prompt:
      provider === 'openai'
        ? 'Ollama: http://localhost:11434/v1 · LM Studio: http://localhost:1234/v1 · OpenAI: https://api.openai.com/v1'
        : 'Anthropic Messages API',
    ignoreFocusOut: true,
    validateInput: (v) =>
      baseUrlProblem(v.trim()) ? 'Enter an http or https URL such as http://localhost:11434/v1' : undefined,
  });
  if (typed === undefined) return;
  await models.rememberSetupBaseUrl(provider, typed.trim());
  const named =
    provider === 'openai'
      ? await pickEndpointModel(normaliseBaseUrl(provider, typed), await models.keyBoundTo(provider, typed))
      : await typeModelName('e.g. claude-sonnet-4-5').then((model) =>
          model === undefined ? undefined : { baseUrl: typed, model },
        );
  if (!named) return;
  const entry = { provider, baseUrl: normaliseBaseUrl(provider, named.baseUrl), model: named.model };
  const { added } = await addUserModel(entry);
  // As the endpoint answered it (a /v1 it added), for the next run.
  await models.rememberSetupBaseUrl(provider, entry.baseUrl);
  await models.select(entryId(entry));
  if (!(await models.keyBoundTo(provider, entry.baseUrl))) {
    const wantsKey = await vscode.window.showQuickPick(['Set an API key now', 'No key needed (e.g. Ollama)'], {
      title: `API key for ${entry.baseUrl}`,
    });
    if (wantsKey === 'Set an API key now') await models.setApiKey(entry);
  }
  const label = models.choice(entryId(entry))?.label ?? entryLabel(entry);
  void vscode.window.showInformationMessage(
    `MinAgent now uses ${label}${added ? ', added to your models (minagent.chat.models)' : ''}. Your other models are in the chat's model picker.`,
  );
}
