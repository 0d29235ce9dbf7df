import * as vscode from 'vscode';
import { splitCommandLine, suggestName } from '../core/commandLine';
import { openServerEntry } from './settingsLocation';
import { writeServerSetting } from './serverSettings';

const NAME = /^[^\s.][^.]*$/;

/**
 * Walks through adding a server, as VS Code's "MCP: Add Server" does: stdio (a command) or HTTP (a
 * URL), a name, and where to keep it (this workspace or the user settings); writes the entry there.
 * Returns the name of the server added.
 */
export async function addServer(): Promise<string | undefined> {
  const title = 'MinAgent: Add Server';
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: '$(terminal) Command (stdio)',
        description: 'Run a local program that speaks MCP on stdin/stdout',
        type: 'stdio' as const,
      },
      {
        label: '$(globe) HTTP',
        description: 'Connect to a server by URL (Streamable HTTP, or SSE)',
        type: 'http' as const,
      },
    ],
    { title, placeHolder: 'What kind of server?' },
  );
  if (!kind) return undefined;
  const stdio = kind.type === 'stdio';
  const source = await vscode.window.showInputBox({
    title,
    prompt: stdio ? 'The command with its arguments' : 'The server URL',
    placeHolder: stdio ? 'npx -y @modelcontextprotocol/server-memory' : 'https://example.com/mcp',
    ignoreFocusOut: true,
    validateInput: (text) =>
      stdio ? (splitCommandLine(text).length ? undefined : 'Enter a command') : urlProblem(text),
  });
  if (source === undefined) return undefined;
  const config = vscode.workspace.getConfiguration('minagent');
  const inspected = config.inspect<Record<string, unknown>>('servers');
  const taken = new Set([
    ...Object.keys(inspected?.globalValue ?? {}),
    ...Object.keys(inspected?.workspaceValue ?? {}),
  ]);
  const name = await vscode.window.showInputBox({
    title,
    prompt: 'A name for the server (its tools are prefixed with it when names clash)',
    value: suggestName(source.trim()),
    ignoreFocusOut: true,
    validateInput: (text) =>
      !NAME.test(text) || text.trim() !== text
        ? 'A name must not be empty, contain dots, or start or end with spaces'
        : taken.has(text)
          ? `A server named "${text}" already exists`
          : undefined,
  });
  if (name === undefined) return undefined;
  const hasFolder = !!vscode.workspace.workspaceFolders?.length;
  const scope = await vscode.window.showQuickPick(
    [
      ...(hasFolder
        ? [
            {
              label: 'Workspace settings',
              description: '.vscode/settings.json: for this workspace only',
              scope: 'workspace' as const,
            },
          ]
        : []),
      { label: 'User settings', description: 'for every workspace', scope: 'user' as const },
    ],
    // Kept open when the focus moves: the command line and name typed before it are not lost.
    { title, placeHolder: `Where to keep "${name}"?`, ignoreFocusOut: true },
  );
  if (!scope) return undefined;
  const [command, ...args] = splitCommandLine(source);
  const entry = stdio ? { command, args } : { type: 'http', url: source.trim() };
  await writeServerSetting(scope.scope, name, entry);
  const open = 'Open Settings';
  void vscode.window
    .showInformationMessage(`MinAgent: added server "${name}" to the ${scope.label.toLowerCase()}.`, open)
    .then((a) => (a === open ? openServerEntry({ server: name }) : undefined));
  return name;
}

function urlProblem(text: string): string | undefined {
  try {
    const u = new URL(text.trim());
    return u.protocol === 'http:' || u.protocol === 'https:'
      ? undefined
      : 'The URL must start with http:// or https://';
  } catch {
    return 'Enter a URL, e.g. https://example.com/mcp';
  }
}
