import { dirname, basename } from 'node:path';
import * as vscode from 'vscode';
import { describeProblem } from '../../core/mcp/config/describe';
import type { Logger } from '../../core/base/logger';
import { toolServerFiles, workspaceServerFiles } from '../../core/mcp/config/serverFiles';
import type { WaitingFile } from '../../core/mcp/config/fileServers';
import { loadWorkspaceConfig, type WorkspaceConfig } from '../configLoader';
import { DevWatch } from '../devWatch';
import { AppearedFiles } from '../appearedFiles';
import { registerReviewCommand } from '../userFiles';
import type { ServerWiring } from './servers';

/**
 * The workspace's configuration, read again (one read at a time, in order) whenever what it is made of
 * changes: settings, trust, folders, the MCP files (the workspace's and other tools' of the user). Each read
 * reconciles the hub with it.
 */
export function watchConfiguration(
  context: vscode.ExtensionContext,
  { hub, inputs, consent, userDir, authReady, log }: ServerWiring,
  onLoaded: () => void,
) {
  let config: WorkspaceConfig | undefined;
  let loading = Promise.resolve();
  const devWatch = new DevWatch(hub, log);
  const offered = new Set<string>();
  const appeared = new AppearedFiles(() => hub.servers().some((s) => s.sandbox !== undefined));
  const reload = (): Promise<void> => {
    loading = loading.then(async () => {
      try {
        config = await loadWorkspaceConfig({ inputs, consent, appeared, ...(userDir ? { userDir } : {}) });
      } catch (err) {
        log.error(`reading the configuration failed: ${(err as Error).message}`);
        return;
      }
      report(config, log);
      await authReady;
      hub.reconcile(config.servers, config.problems, config.settings);
      devWatch.update(config.servers);
      for (const waiting of config.waiting) offerOnce(waiting, offered, log);
      onLoaded();
    });
    return loading;
  };
  context.subscriptions.push(
    devWatch,
    registerReviewCommand(consent, userDir, reload, {
      waiting: () => config?.waiting.filter((w) => w.appeared) ?? [],
      ask: (w) => appeared.ask(w.file, w.entries),
    }),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent') && void reload()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reload()),
  );
  const folder = vscode.workspace.workspaceFolders?.[0];
  const files = [
    ...(folder?.uri.scheme === 'file' ? workspaceServerFiles(folder.uri.fsPath) : []),
    ...toolServerFiles(userDir),
  ];
  for (const file of files) {
    const where = new vscode.RelativePattern(vscode.Uri.file(dirname(file.path)), basename(file.path));
    const watcher = vscode.workspace.createFileSystemWatcher(where);
    const onFile = () => void reload();
    context.subscriptions.push(
      watcher,
      watcher.onDidChange(onFile),
      watcher.onDidCreate(onFile),
      watcher.onDidDelete(onFile),
    );
  }
  return { reload, config: () => config };
}

function report(config: WorkspaceConfig, log: Logger): void {
  for (const p of config.problems) (p.severity === 'error' ? log.error : log.warn)(`config: ${describeProblem(p)}`);
  if (config.untrusted.length) log.warn(`workspace not trusted: not starting ${config.untrusted.join(', ')}`);
  for (const w of config.waiting)
    log.info(`${w.file.label}: ${w.entries.map((e) => e.name).join(', ')} wait for your confirmation to start`);
}

/** Says once per window that another tool's file has servers that wait, with the way to start them. */
function offerOnce(waiting: WaitingFile, offered: Set<string>, log: Logger): void {
  if (offered.has(waiting.file.path)) return;
  offered.add(waiting.file.path);
  const n = waiting.entries.length;
  const servers = `${n} MCP server${n === 1 ? '' : 's'}`;
  void vscode.window
    .showInformationMessage(
      waiting.appeared
        ? `${waiting.file.label} appeared while this workspace's sandboxed servers ran: its ${servers} ${n === 1 ? 'waits' : 'wait'} for you.`
        : `MinAgent found ${servers} in ${waiting.file.label}. Start ${n === 1 ? 'it' : 'them'} here too?`,
      'Review…',
    )
    .then(
      (a) => a && vscode.commands.executeCommand('minagent.reviewUserFile', waiting.file.path),
      (err: Error) => log.warn(`offering ${waiting.file.label}: ${err.message}`),
    );
}
