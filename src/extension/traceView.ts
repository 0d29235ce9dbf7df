import * as vscode from 'vscode';
import type { Disposable } from '../core/base/event';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { traceDetail, traceLinks, traceSummary } from '../core/mcp/trace/traceText';
import { pickServer } from './commands';
import { setting } from './trustedSettings';

export const TRACE_SCHEME = 'minagent-trace';
/** An open summary is redrawn at most this often while messages arrive. */
const REFRESH_MS = 500;

/**
 * `minagent-trace:/<server>.trace.log` for a server's list; `minagent-trace:/<server>/<server>-<seq>.jsonc` for one
 * message.
 */
export function traceUri(server: string, seq?: number): vscode.Uri {
  const name = encodeURIComponent(server);
  return vscode.Uri.from({
    scheme: TRACE_SCHEME,
    path: seq === undefined ? `/${name}.trace.log` : `/${name}/${name}-${seq}.jsonc`,
  });
}

function parseUri(uri: vscode.Uri): { server: string; seq?: number } | undefined {
  const list = /^\/([^/]+)\.trace\.log$/.exec(uri.path);
  if (list) return { server: decodeURIComponent(list[1]!) };
  const one = /^\/([^/]+)\/[^/]*-(\d+)\.jsonc$/.exec(uri.path);
  return one ? { server: decodeURIComponent(one[1]!), seq: Number(one[2]) } : undefined;
}

/**
 * Each server's MCP trace in the editor: read-only documents of the hub's redacted ring buffers
 * (the list, live while open, and each message a link away), the Show Trace command, and the
 * `minagent.trace` setting that switches recording (off by default).
 */
class TraceDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, Disposable {
  private readonly onDidChangeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.onDidChangeEmitter.event;
  /** Open lists, by server: their live listener and pending redraw. */
  private readonly open = new Map<string, { listener: Disposable; timer: ReturnType<typeof setTimeout> | undefined }>();

  constructor(private readonly hub: ServerHub) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const at = parseUri(uri);
    if (!at) return `Not a MinAgent trace address: ${uri.toString()}`;
    if (!this.hub.serverNames().includes(at.server)) return `No server "${at.server}" in the current settings.`;
    const trace = this.hub.trace(at.server);
    if (at.seq === undefined) {
      this.watch(at.server, uri);
      return traceSummary(at.server, trace);
    }
    const entry = trace.entries().find((e) => e.seq === at.seq);
    return entry
      ? traceDetail(at.server, entry)
      : `// message #${at.seq} of server "${at.server}" is no longer kept (the trace keeps the newest messages)\n`;
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const at = parseUri(document.uri);
    if (!at || at.seq !== undefined) return [];
    return traceLinks(document.getText()).map((l) => {
      const link = new vscode.DocumentLink(
        new vscode.Range(l.line, l.start, l.line, l.end),
        traceUri(at.server, l.seq),
      );
      link.tooltip = `Open message #${l.seq}`;
      return link;
    });
  }

  private watch(server: string, uri: vscode.Uri): void {
    if (this.open.has(server)) return;
    const state = {
      listener: { dispose: () => undefined } as Disposable,
      timer: undefined as ReturnType<typeof setTimeout> | undefined,
    };
    state.listener = this.hub.trace(server).onDidRecord(() => {
      state.timer ??= setTimeout(() => {
        state.timer = undefined;
        this.onDidChangeEmitter.fire(uri);
      }, REFRESH_MS);
    });
    this.open.set(server, state);
  }

  /** A closed list stops listening. */
  closed(uri: vscode.Uri): void {
    const at = parseUri(uri);
    if (uri.scheme !== TRACE_SCHEME || !at || at.seq !== undefined) return;
    const state = this.open.get(at.server);
    if (!state) return;
    state.listener.dispose();
    clearTimeout(state.timer);
    this.open.delete(at.server);
  }

  dispose(): void {
    for (const state of this.open.values()) state.listener.dispose(), clearTimeout(state.timer);
    this.open.clear();
    this.onDidChangeEmitter.dispose();
  }
}

export function registerTraceView(hub: ServerHub): vscode.Disposable[] {
  const docs = new TraceDocuments(hub);
  const apply = () => hub.setTracing(setting<boolean>('trace', false) === true);
  apply();
  return [
    docs,
    vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, docs),
    vscode.languages.registerDocumentLinkProvider({ scheme: TRACE_SCHEME }, docs),
    vscode.workspace.onDidCloseTextDocument((d) => docs.closed(d.uri)),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent.trace') && apply()),
    vscode.workspace.onDidGrantWorkspaceTrust(apply),
    vscode.commands.registerCommand('minagent.showTrace', async (node?: unknown) => {
      const server = await pickServer(hub, node, 'Show Trace', () => true);
      if (!server) return;
      // Off, there is nothing to show yet: asked first, rather than opening an empty document.
      if (!hub.trace(server).isEnabled) {
        const on = 'Turn On and Show';
        const answer = await vscode.window.showInformationMessage(
          `MinAgent: the MCP trace is off (minagent.trace), so nothing of "${server}" was recorded. Turn it on to record every server's messages (redacted, in memory only) from now on?`,
          on,
        );
        if (answer !== on) return;
        await vscode.workspace.getConfiguration('minagent').update('trace', true, vscode.ConfigurationTarget.Global);
        apply();
      }
      const doc = await vscode.workspace.openTextDocument(traceUri(server));
      await vscode.window.showTextDocument(doc, { preview: false });
    }),
  ];
}
