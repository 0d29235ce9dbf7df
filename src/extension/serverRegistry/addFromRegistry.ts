import * as vscode from 'vscode';
import { storedInputKey } from '../../core/mcp/config/storedInputs';
import { commandExists } from '../../core/mcp/transport/findCommand';
import { buildEntry, plansOf, previewOf, type Ask, type Plan } from '../../core/serverRegistry/launch';
import { registryText, type ServerJson } from '../../core/serverRegistry/serverJson';
import { errorMessage } from '../../core/toolRegistry/toolRegistry';
import { visibleLine } from '../../shared/visibleText';
import { settingsInputOrigin, type InputStore } from '../inputs';
import { openServerEntry } from '../settingsLocation';
import { writeServerSetting } from '../serverSettings';
import { suggestedEntryName } from '../../core/serverRegistry/names';

const TITLE = 'MinAgent: Add Server from Registry';

/**
 * Adds a registry's server in one step: the way to run it (a package MinAgent can start, or a
 * remote), a runtime missing on this machine named before anything else, every variable asked (a
 * form of inputs; choices as picks; secrets masked and kept in secret storage, the entry holding
 * `${input:}`), where to keep it, and a modal with the exact command line or URL (newlines, control and
 * direction characters shown as escapes; a fixed value the user never typed shown as it is); only then is the
 * entry written. Nothing runs here: the server starts as any entry does (sandboxed as its scope says).
 */
export async function addFromRegistry(
  server: ServerJson,
  registry: string,
  inputs: InputStore,
): Promise<string | undefined> {
  const { plans, unusable } = plansOf(server);
  if (!plans.length) {
    void vscode.window.showErrorMessage(
      `MinAgent: ${registryText(server.name, 200)} cannot be added: ${unusable.map((u) => registryText(`${u.what}: ${u.problem}`, 300)).join('; ') || 'it offers no package or remote'}`,
    );
    return undefined;
  }
  const plan =
    plans.length === 1
      ? plans[0]
      : (
          await vscode.window.showQuickPick(
            plans.map((p) => ({
              label: p.kind === 'remote' ? '$(globe) Remote' : `$(package) ${p.kind}`,
              description: registryText(previewOf(server, p), 200),
              plan: p,
            })),
            { title: TITLE, placeHolder: 'How should it run?', ignoreFocusOut: true },
          )
        )?.plan;
  if (!plan) return undefined;
  if (
    plan.runtime &&
    !(await commandExists(plan.runtime.command, process.env as Record<string, string>, process.cwd()))
  ) {
    void vscode.window.showErrorMessage(
      `MinAgent: ${registryText(server.name, 200)} runs with "${plan.runtime.command}", which is not installed on this machine (not on PATH). Install it, or choose another way to run it.`,
    );
    return undefined;
  }
  const answers: Record<string, string> = {};
  for (const ask of plan.asks) {
    const value = await askFor(ask, server);
    if (value === undefined) return undefined;
    answers[ask.id] = value;
  }
  const hasFolder = !!vscode.workspace.workspaceFolders?.length;
  const scope = await vscode.window.showQuickPick(
    [
      { label: 'User settings', description: 'for every workspace', scope: 'user' as const },
      ...(hasFolder
        ? [
            {
              label: 'Workspace settings',
              description: '.vscode/settings.json: for this workspace only (its servers run in a sandbox)',
              scope: 'workspace' as const,
            },
          ]
        : []),
    ],
    // Kept open when the focus moves (a click in the tree, the chat taking the caret): what was typed above is not
    // lost.
    {
      title: TITLE,
      placeHolder: `Where to keep ${registryText(server.title ?? server.name, 100)}?`,
      ignoreFocusOut: true,
    },
  );
  if (!scope) return undefined;
  const inspected = vscode.workspace.getConfiguration('minagent').inspect<Record<string, unknown>>('servers');
  const name = suggestedEntryName(
    server.name,
    new Set([...Object.keys(inspected?.globalValue ?? {}), ...Object.keys(inspected?.workspaceValue ?? {})]),
  );
  let built: ReturnType<typeof buildEntry>;
  let own: ReturnType<typeof buildEntry> | undefined;
  try {
    const options = { name, registry: { url: registry, name: server.name, version: server.version } };
    built = buildEntry(server, plan, answers, options);
    // An npm package that names its own registry: installing from there is a choice the modal offers, never the
    // default.
    if (plan.registryBaseUrl && plan.kind === 'npm')
      own = buildEntry(server, plan, answers, { ...options, useRegistryBaseUrl: true });
  } catch (err) {
    void vscode.window.showErrorMessage(`MinAgent: ${registryText(server.name, 200)}: ${errorMessage(err)}`);
    return undefined;
  }
  const chosen = await confirm(server, plan, name, built.shown, Object.keys(built.secrets), own?.shown);
  if (!chosen) return undefined;
  if (chosen === 'own' && own) built = own;
  const origin = settingsInputOrigin(scope.scope);
  for (const [id, value] of Object.entries(built.secrets))
    await inputs.store.store(storedInputKey(origin, name, built.entry, id), value);
  await writeServerSetting(scope.scope, name, built.entry);
  const open = 'Open Settings';
  void vscode.window
    .showInformationMessage(
      `MinAgent: added "${name}" (${registryText(server.name, 200)} ${registryText(server.version, 50)}) to the ${scope.label.toLowerCase()}.`,
      open,
    )
    .then((a) => (a === open ? openServerEntry({ server: name }) : undefined));
  return name;
}

/**
 * One variable: a pick when it has choices, else an input box (masked for a secret); undefined when the user backs out.
 */
async function askFor(ask: Ask, server: ServerJson): Promise<string | undefined> {
  const about = registryText(ask.description, 300);
  const title = `${TITLE}: ${registryText(server.title ?? server.name, 80)}`;
  if (ask.choices?.length) {
    const picked = await vscode.window.showQuickPick(
      ask.choices.map((c) => ({
        label: registryText(c, 100),
        value: c,
        ...(c === ask.default ? { description: 'default' } : {}),
      })),
      { title, placeHolder: `${registryText(ask.label, 100)}${about ? `: ${about}` : ''}`, ignoreFocusOut: true },
    );
    return picked?.value;
  }
  return vscode.window.showInputBox({
    title,
    prompt: `${registryText(ask.label, 100)}${about ? `: ${about}` : ''}${ask.required ? '' : ' (optional)'}${ask.secret ? ' (kept in secret storage, never in settings)' : ''}`,
    ...(ask.default !== undefined && !ask.secret ? { value: ask.default } : {}),
    ...(ask.placeholder !== undefined ? { placeHolder: registryText(ask.placeholder, 100) } : {}),
    password: ask.secret,
    ignoreFocusOut: true,
    validateInput: (text) =>
      ask.required && !text && ask.default === undefined
        ? `${registryText(ask.label, 100)} is required`
        : text.includes('${') && !ask.secret
          ? 'It must not hold "${"'
          : undefined,
  });
}

/**
 * The modal that names exactly what the entry runs or reaches. A package's launcher hint is shown, not
 * used; its own registry is used only through the second button, whose command line is shown too.
 */
async function confirm(
  server: ServerJson,
  plan: Plan,
  name: string,
  shown: string,
  secrets: string[],
  withOwnRegistry?: string,
): Promise<'add' | 'own' | undefined> {
  const lines = [
    plan.remote ? `It connects to: ${shown}` : `It runs: ${shown}`,
    ...(secrets.length ? [`Secrets (in secret storage): ${visibleLine(secrets.join(', '))}`] : []),
    ...(plan.registryBaseUrl
      ? [
          `The package names ${visibleLine(plan.registryBaseUrl)} as its registry; Add Server installs it from your own configuration.`,
        ]
      : []),
    ...(withOwnRegistry ? [`Add from Its Registry runs: ${withOwnRegistry}`] : []),
    ...(plan.runtimeHint && plan.runtimeHint !== plan.runtime?.command
      ? [
          `The package suggests running it with "${registryText(plan.runtimeHint, 50)}"; MinAgent runs ${plan.runtime?.type} packages with ${plan.runtime?.command}.`,
        ]
      : []),
    ...(server.repository ? [`Source: ${visibleLine(server.repository.url)}`] : []),
    'Nothing runs until the server starts from its entry.',
  ];
  const add = 'Add Server';
  const ownButton = 'Add from Its Registry';
  const answer = await vscode.window.showWarningMessage(
    `Add "${name}" (${registryText(server.name, 200)} ${registryText(server.version, 50)})?`,
    { modal: true, detail: lines.join('\n') },
    add,
    ...(withOwnRegistry ? [ownButton] : []),
  );
  return answer === add ? 'add' : answer === ownButton ? 'own' : undefined;
}
