import * as vscode from 'vscode';
import { AuthManager } from '../core/auth/manager';
import type { SignInUi } from '../core/auth/signInUi';
import { shortHost } from '../core/auth/endpoints';
import {
  LoopbackReceiver,
  PendingCallbacks,
  redirectRoute,
  type CallbackBinding,
  type RedirectReceiver,
} from '../core/auth/redirect';
import type { SecretStore } from '../core/base/secretStore';
import type { Logger } from '../core/base/logger';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { setting } from './trustedSettings';

const CALLBACK_PATH = '/oauth-callback';

/**
 * The browser comes back through VS Code's URI handler: `vscode://<extension id>/oauth-callback/<route>`,
 * one route per authorization server.
 */
class UriHandlerReceiver implements RedirectReceiver, vscode.UriHandler {
  private readonly pending = new PendingCallbacks();
  constructor(private readonly base: string) {}

  redirectUrlFor(issuer: string | undefined): string {
    return `${this.base}/${redirectRoute(issuer)}`;
  }

  handleUri(uri: vscode.Uri): void {
    const route = new RegExp(`^${CALLBACK_PATH}/([a-z0-9.-]{1,80})$`).exec(uri.path)?.[1];
    if (!route) return;
    const delivery = this.pending.deliver(route, new URLSearchParams(uri.query));
    if (delivery === 'refused')
      void vscode.window.showErrorMessage(
        'MinAgent: a sign-in came back from another authorization server than the one it was sent to, and was refused. Nothing was sent.',
      );
  }

  wait(binding: CallbackBinding, signal?: AbortSignal): Promise<URLSearchParams> {
    return this.pending.wait(binding, signal);
  }
}

/** SecretStorage as the core's secret store: tokens never touch settings or files. */
function secretStorage(secrets: vscode.SecretStorage): SecretStore {
  return {
    get: (key) => Promise.resolve(secrets.get(key)),
    store: (key, value) => Promise.resolve(secrets.store(key, value)),
    delete: (key) => Promise.resolve(secrets.delete(key)),
  };
}

/** A URL's host for a dialog: bounded, host characters only (server-written). */
function hostOf(url: string): string {
  try {
    return shortHost(new URL(url));
  } catch {
    return 'an unknown address';
  }
}

const ui: SignInUi = {
  async open(url, server, issuer) {
    // The user chose Sign In (or agreed to sign in again); before the browser opens, they see where it goes.
    const host = hostOf(url.href);
    const issuerHost = hostOf(issuer);
    const open = 'Open Browser';
    const answer = await vscode.window.showInformationMessage(
      `Sign in to "${server}" at ${host}?`,
      {
        modal: true,
        detail: `MinAgent will open the authorization server ${host}${issuerHost !== host ? ` (issuer ${issuerHost})` : ''} in your browser. "${server}" named it; sign in only if you expect this server to use it.`,
      },
      open,
    );
    if (answer !== open) return false;
    const opened = await vscode.env.openExternal((await browserAddress(url)) as unknown as vscode.Uri);
    if (opened)
      void vscode.window.setStatusBarMessage(
        `MinAgent: waiting for the sign-in to "${server}" in the browser…`,
        10_000,
      );
    return opened;
  },
  async askClientId(server, issuer) {
    return vscode.window.showInputBox({
      title: `MinAgent: Sign In to "${server}"`,
      prompt: `The authorization server ${issuer} offers no client registration. Enter a client ID registered for MinAgent there.`,
      ignoreFocusOut: true,
    });
  },
  async confirmReauthorization(server) {
    const answer = await vscode.window.showWarningMessage(
      `MinAgent: server "${server}" asks you to sign in again (the session expired or it needs more permissions).`,
      'Sign In',
    );
    return answer === 'Sign In';
  },
  async bindClientSecret(server, issuer) {
    const yes = 'Send It There';
    const answer = await vscode.window.showWarningMessage(
      `The client secret of "${server}" names no authorization server. Does it belong to ${hostOf(issuer)}?`,
      {
        modal: true,
        detail: `"${server}" now names ${issuer} as its authorization server. MinAgent sends a pre-registered client secret only to the authorization server it was registered with. If you say yes, "oauth.issuer": "${issuer}" is written to the entry and the secret goes nowhere else.`,
      },
      yes,
    );
    if (answer !== yes) return false;
    await writeIssuer(server, issuer);
    return true;
  },
};

/**
 * The authorization URL as the editor must be given it so that the browser gets it exactly, query
 * encoding included. A string is passed on as it is; but where the editor runs remotely or in a
 * browser, an address on the extension host's machine is rewritten to the editor's port proxy
 * (`asExternalUri`), and that rewrite re-encodes the query from its decoded form: the resource
 * indicator (a URL in the query) reached code-server's proxy as `resource=http://…`, the proxy folded
 * its "//" to "/", and the MCP server refused the token issued for that resource. So the proxy
 * address is asked for here, and the URL's own path and query are put after it as they are (the
 * editor does not rewrite an address of its own origin again).
 */
async function browserAddress(url: URL): Promise<string> {
  const origin = vscode.Uri.parse(`${url.origin}/`);
  const external = await vscode.env.asExternalUri(origin);
  if (external.toString() === origin.toString()) return url.href;
  return `${external.scheme}://${external.authority}${external.path.replace(/\/$/, '')}${url.pathname}${url.search}${url.hash}`;
}

/**
 * Writes `oauth.issuer` into the settings entry of `server` (user or workspace settings); an MCP file's entry keeps it
 * for this session only.
 */
async function writeIssuer(server: string, issuer: string): Promise<void> {
  const config = vscode.workspace.getConfiguration('minagent');
  const inspected = config.inspect<Record<string, Record<string, unknown>>>('servers');
  const scopes = [
    [inspected?.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder],
    [inspected?.workspaceValue, vscode.ConfigurationTarget.Workspace],
    [inspected?.globalValue, vscode.ConfigurationTarget.Global],
  ] as const;
  for (const [value, target] of scopes) {
    const entry = value?.[server];
    if (!entry || typeof entry !== 'object') continue;
    const oauth = entry.oauth && typeof entry.oauth === 'object' ? (entry.oauth as Record<string, unknown>) : {};
    await config.update('servers', { ...value, [server]: { ...entry, oauth: { ...oauth, issuer } } }, target);
    return;
  }
}

/**
 * The editor's OAuth: tokens in SecretStorage, the browser opened with `openExternal`, and the
 * return through the URI handler, or a loopback address where the editor runs in a browser (the
 * URI handler cannot reach the extension host there).
 */
export async function createEditorAuth(context: vscode.ExtensionContext, log: Logger): Promise<AuthManager> {
  let receiver: RedirectReceiver;
  if (vscode.env.uiKind === vscode.UIKind.Web) {
    const loopback = await LoopbackReceiver.start();
    context.subscriptions.push({ dispose: () => void loopback.dispose() });
    receiver = loopback;
  } else {
    const external = await vscode.env.asExternalUri(
      vscode.Uri.parse(`${vscode.env.uriScheme}://${context.extension.id}${CALLBACK_PATH}`),
    );
    const handler = new UriHandlerReceiver(external.toString(true).replace(/\/+$/, ''));
    context.subscriptions.push(vscode.window.registerUriHandler(handler));
    receiver = handler;
  }
  log.info(
    `oauth: sign-ins return to ${receiver.redirectUrlFor(undefined).replace(/\/[^/]*$/, '')}/<authorization server>`,
  );
  const manager = new AuthManager({
    secrets: secretStorage(context.secrets),
    receiver,
    ui,
    interaction: 'ask',
    clientMetadataUrl: () => setting<string>('oauth.clientMetadataUrl', '') || undefined,
  });
  context.subscriptions.push({ dispose: () => manager.dispose() });
  return manager;
}

function serverName(node: unknown): string | undefined {
  const n = node as { kind?: string; name?: unknown; server?: unknown } | undefined;
  if (n?.kind === 'server' && typeof n.name === 'string') return n.name;
  if (n?.kind === 'action' && typeof n.server === 'string') return n.server;
  return undefined;
}

/** Sign In and Sign Out, from a server's tree node or the palette. */
export function registerAuthCommands(
  hub: ServerHub,
  manager: () => Promise<AuthManager | undefined>,
): vscode.Disposable[] {
  const pick = async (node: unknown, title: string) => {
    const named = serverName(node);
    if (named) return named;
    const items = hub
      .servers()
      .filter((s) => s.config.type !== 'stdio')
      .map((s) => ({ label: s.name, description: s.state.kind === 'signIn' ? 'sign in needed' : s.state.kind }));
    if (!items.length) {
      void vscode.window.showInformationMessage('MinAgent: no HTTP server to sign in to.');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { title: `MinAgent: ${title}` }))?.label;
  };
  return [
    vscode.commands.registerCommand('minagent.signIn', async (node?: unknown) => {
      const name = await pick(node, 'Sign In');
      const auth = await manager();
      if (!name || !auth) return;
      auth.requestSignIn(name);
      hub.restart(name);
    }),
    vscode.commands.registerCommand('minagent.signOut', async (node?: unknown) => {
      const name = await pick(node, 'Sign Out');
      const auth = await manager();
      if (!name || !auth) return;
      await auth.signOut(name);
      hub.restart(name);
      void vscode.window.showInformationMessage(`MinAgent: signed out of "${name}"; its tokens are deleted.`);
    }),
  ];
}

/** An HTTP server's rows get Sign Out in their menu. */
export function signInLook(item: vscode.TreeItem, http: boolean): void {
  if (http) item.contextValue = `${item.contextValue}.http`;
}
