import * as vscode from 'vscode';
import { listEndpointModels } from '../../core/models/endpointModels';

const OTHER = 'Another model name…';

/**
 * The model name for an OpenAI-compatible endpoint: picked from what the endpoint lists
 * (`GET /models`, with the key only when it is bound to this origin), or typed when it lists
 * nothing. Returns the base URL the list answered at (`/v1` added when the user's URL lacked it),
 * or undefined when the user cancelled.
 */
export async function pickEndpointModel(
  baseUrl: string,
  apiKey: string | undefined,
): Promise<{ baseUrl: string; model: string } | undefined> {
  const qp = vscode.window.createQuickPick();
  qp.title = 'Model';
  qp.placeholder = `Asking ${baseUrl} for its models…`;
  qp.busy = true;
  qp.ignoreFocusOut = true;
  const abort = new AbortController();
  const chosen = new Promise<string | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]?.label));
    qp.onDidHide(() => resolve(undefined));
  });
  qp.show();
  const listed = await Promise.race([
    listEndpointModels(baseUrl, { ...(apiKey ? { apiKey } : {}), signal: abort.signal }),
    chosen.then(() => undefined),
  ]);
  if (!listed) {
    abort.abort();
    qp.dispose();
    return undefined;
  }
  if (!listed.ok) {
    qp.dispose();
    const model = await typeModelName(
      `${baseUrl} did not list its models (${listed.reason}). Type the model name, e.g. llama3.2, gpt-4o-mini.`,
    );
    return model === undefined ? undefined : { baseUrl, model };
  }
  qp.busy = false;
  qp.placeholder = `The models ${listed.baseUrl} serves (${listed.ids.length})`;
  qp.items = [
    ...listed.ids.map((label) => ({ label })),
    { label: OTHER, alwaysShow: true, description: 'type a name the list does not show' },
  ];
  const label = await chosen;
  qp.dispose();
  if (label === undefined) return undefined;
  const model = label === OTHER ? await typeModelName('The model name, as the endpoint knows it.') : label;
  return model === undefined ? undefined : { baseUrl: listed.baseUrl, model };
}

export function typeModelName(prompt: string): Thenable<string | undefined> {
  return vscode.window
    .showInputBox({
      title: 'Model name',
      prompt,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'A model name is required'),
    })
    .then((v) => v?.trim());
}
