import * as vscode from 'vscode';
import { describeProblem } from '../../core/mcp/config/describe';
import type { Logger } from '../../core/base/logger';
import { loadWorkspaceConfig, type WorkspaceConfig } from '../configLoader';
import { SERVER_FILES } from '../mcpFiles';
import type { ServerWiring } from './servers';

/**
 * The workspace's configuration, read again (one read at a time, in order) whenever what it is made of
 * changes: settings, trust, folders, the server files (`.vscode/mcp.json`) the user let count. Each read
 * reconciles the hub with it.
 */
export function watchConfiguration(
  context: vscode.ExtensionContext,
  { hub, inputs, authReady, log }: Pick<ServerWiring, 'hub' | 'inputs' | 'authReady' | 'log'>,
  onLoaded: () => void,
) {
  let config: WorkspaceConfig | undefined;
  let loading = Promise.resolve();
  const reload = (): Promise<void> => {
    loading = loading.then(async () => {
      try {
        config = await loadWorkspaceConfig(inputs);
      } catch (err) {
        log.error(`reading the configuration failed: ${(err as Error).message}`);
        return;
      }
      report(config, log);
      await authReady;
      hub.reconcile(config.servers, config.problems, config.settings);
      onLoaded();
    });
    return loading;
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('minagent') && void reload()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void reload()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reload()),
  );
  const folder = vscode.workspace.workspaceFolders?.[0];
  for (const file of folder ? SERVER_FILES : []) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder!, file.label));
    const onFile = () => vscode.workspace.getConfiguration('minagent').get<boolean>(file.setting) && void reload();
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
}
