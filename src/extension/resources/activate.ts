import * as vscode from 'vscode';
import type { Logger } from '../../core/base/logger';
import type { Attachments } from '../../core/chat/attachments';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import type { ModelChoices } from '../chat/models';
import { createAttachments } from './attach';
import { registerResourceCommands } from './resourceCommands';
import { ResourceDocuments } from './resourceDocs';
import type { IconSource } from '../icons/iconSource';
import { ResourceTreeProvider } from './resourceTree';

export const RESOURCES_VIEW = 'minagent.resources';

/** The Resources view, its commands and the resource documents; everything is owned by `subscriptions`. */
export function activateResources(
  subscriptions: vscode.Disposable[],
  hub: ServerHub,
  log: Logger,
  models: ModelChoices,
  icons?: IconSource,
): { tree: ResourceTreeProvider; docs: ResourceDocuments; attachments: Attachments } {
  const tree = new ResourceTreeProvider(hub, icons);
  const docs = new ResourceDocuments(hub.catalog, log);
  const view = vscode.window.createTreeView(RESOURCES_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  // The view shows only while some running server offers resources.
  let shown: boolean | undefined;
  const showView = () => {
    const has = hub.catalog.resources().length > 0 || hub.catalog.templates().length > 0;
    if (has !== shown) void vscode.commands.executeCommand('setContext', 'minagent.hasResources', (shown = has));
  };
  showView();
  const { attachments, command } = createAttachments(hub, models, tree);
  const resourcesChanged = hub.catalog.onDidChangeResources(showView);
  subscriptions.push(
    tree,
    docs,
    view,
    attachments,
    command,
    { dispose: () => resourcesChanged.dispose() },
    ...registerResourceCommands(hub, tree, docs),
  );
  return { tree, docs, attachments };
}
