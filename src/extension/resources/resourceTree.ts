import * as vscode from 'vscode';
import { isAppPage } from '../../core/chat/attachments';
import type { HubCatalog } from '../../core/mcp/hub/catalog';
import type { McpResource, McpResourceTemplate } from '../../core/mcp/features/featureTypes';
import { formatBytes } from '../../core/mcp/features/resourceView';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { serverRedactor } from '../../core/mcp/config/serverRedactor';
import type { IconSource } from '../icons/iconSource';
import { markdownText } from '../../shared/markdownText';

export type ResourceNode =
  | { kind: 'resourceServer'; server: string }
  | { kind: 'resource'; server: string; uri: string }
  | { kind: 'template'; server: string; uriTemplate: string };

/**
 * The Resources view: each running server that offers resources, with its resources and resource
 * templates (the core lists them page by page and refreshes them on `list_changed`). A click opens
 * a resource (or fills a template first); "Add to Chat" attaches it to the next message.
 */
export class ResourceTreeProvider implements vscode.TreeDataProvider<ResourceNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ResourceNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly listeners: Array<{ dispose(): void }>;

  constructor(
    private readonly hub: ServerHub,
    private readonly icons?: IconSource,
  ) {
    this.listeners = [
      hub.catalog.onDidChangeResources(() => this.refresh()),
      hub.onDidChangeServers(() => this.refresh()),
    ];
    if (icons) this.listeners.push(icons.onDidLoad(() => this.refresh()));
  }

  /** Server-written text with the secrets of that server's entry taken out (a server may echo them). */
  private clean(server: string, text: string | undefined): string | undefined {
    const config = this.hub.servers().find((s) => s.name === server)?.config;
    return text === undefined || !config ? text : serverRedactor(config).redact(text);
  }

  private get catalog(): HubCatalog {
    return this.hub.catalog;
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: ResourceNode): ResourceNode[] {
    if (!node) {
      const servers = new Set([...this.catalog.resources(), ...this.catalog.templates()].map((r) => r.server));
      return this.hub
        .serverNames()
        .filter((s) => servers.has(s))
        .map((server) => ({ kind: 'resourceServer', server }));
    }
    if (node.kind !== 'resourceServer') return [];
    return [
      ...this.catalog
        .resources()
        .filter((r) => r.server === node.server)
        .map((r): ResourceNode => ({ kind: 'resource', server: r.server, uri: r.uri })),
      ...this.catalog
        .templates()
        .filter((t) => t.server === node.server)
        .map((t): ResourceNode => ({ kind: 'template', server: t.server, uriTemplate: t.uriTemplate })),
    ];
  }

  /** The listed resource or template a node stands for, if it is still listed. */
  resource(node: Extract<ResourceNode, { kind: 'resource' }>): McpResource | undefined {
    return this.catalog.resources().find((r) => r.server === node.server && r.uri === node.uri);
  }

  template(node: Extract<ResourceNode, { kind: 'template' }>): McpResourceTemplate | undefined {
    return this.catalog.templates().find((t) => t.server === node.server && t.uriTemplate === node.uriTemplate);
  }

  getTreeItem(node: ResourceNode): vscode.TreeItem {
    switch (node.kind) {
      case 'resourceServer': {
        const info = this.catalog.serverInfo(node.server);
        const item = new vscode.TreeItem(node.server, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `resources:${node.server}`;
        item.contextValue = 'resourceServer';
        const count = this.catalog.resources().filter((r) => r.server === node.server).length;
        const templates = this.catalog.templates().filter((t) => t.server === node.server).length;
        item.description = [
          this.clean(node.server, info?.title),
          `${count} resource${count === 1 ? '' : 's'}`,
          templates ? `${templates} template${templates === 1 ? '' : 's'}` : undefined,
        ]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = this.icons?.path(info?.icons) ?? new vscode.ThemeIcon('server');
        return item;
      }
      case 'resource': {
        const r = this.resource(node);
        const item = new vscode.TreeItem(this.clean(node.server, r?.title ?? r?.name ?? node.uri)!);
        item.id = `resource:${node.server}:${node.uri}`;
        // An app's page opens (its HTML, as text) but is not offered to Add to Chat.
        item.contextValue = isAppPage(node.uri) ? 'appPage' : 'resource';
        item.description = [r?.mimeType, r?.size !== undefined ? formatBytes(r.size) : undefined]
          .filter(Boolean)
          .join(' · ');
        item.tooltip = tooltip(
          this.clean(node.server, node.uri)!,
          this.clean(node.server, r?.name),
          this.clean(node.server, r?.description),
        );
        item.iconPath = this.icons?.path(r?.icons) ?? new vscode.ThemeIcon('file');
        item.command = { command: 'minagent.openResource', title: 'Open Resource', arguments: [node] };
        return item;
      }
      case 'template': {
        const t = this.template(node);
        const item = new vscode.TreeItem(this.clean(node.server, t?.title ?? t?.name ?? node.uriTemplate)!);
        item.id = `template:${node.server}:${node.uriTemplate}`;
        item.contextValue = 'resourceTemplate';
        item.description = this.clean(node.server, node.uriTemplate);
        item.tooltip = tooltip(
          this.clean(node.server, node.uriTemplate)!,
          this.clean(node.server, t?.name),
          this.clean(node.server, t?.description),
        );
        item.iconPath = this.icons?.path(t?.icons) ?? new vscode.ThemeIcon('symbol-parameter');
        item.command = { command: 'minagent.openResource', title: 'Open Resource', arguments: [node] };
        return item;
      }
    }
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.emitter.dispose();
  }
}

/** A tooltip of server-written text: set as text, never as Markdown with links or commands. */
function tooltip(uri: string, name: string | undefined, description: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown(
    [uri, name, description]
      .filter(Boolean)
      .map((t) => markdownText(t!))
      .join('\n\n'),
  );
  return md;
}
