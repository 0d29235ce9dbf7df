import * as vscode from 'vscode';
import { forApp, forModel, type Tool, type ToolRegistry } from '../core/toolRegistry/toolRegistry';
import type { ToolSwitches } from '../core/toolRegistry/toolSwitches';
import type { ToolPins } from '../core/toolSearch/pins';
import { markdownText } from '../shared/markdownText';
import type { IconSource } from './icons/iconSource';
import type { Node } from './treeNode';

/** Tool rows whose tooltip is made when hovered. */
const toolTooltips = new WeakMap<vscode.TreeItem, Tool>();

interface ToolRowDeps {
  registry: ToolRegistry;
  switches: ToolSwitches;
  icons: IconSource | undefined;
  pins?: ToolPins | undefined;
  /** Wire names the open chat has loaded while tools are deferred. */
  loaded?: ReadonlySet<string>;
}

/** A tool's row in the Tools tree: its switch, its marks (renamed, off, title, wire name) and icon. */
export function toolItem(
  node: Extract<Node, { kind: 'tool' }>,
  tool: Tool | undefined,
  { registry, switches, icons, pins, loaded }: ToolRowDeps,
): vscode.TreeItem {
  const item = new vscode.TreeItem(node.name);
  item.id = `tool:${node.server}:${node.name}`;
  item.contextValue = 'tool';
  if (!tool) return item;
  const wire = registry.wireName(tool.name);
  const why = switches.whyOff(tool);
  const pinned = pins?.isPinned(tool) ?? false;
  // Pin and Unpin on the row's menu follow this (see package.json's view/item/context).
  item.contextValue = pinned ? 'tool.pinned' : 'tool.unpinned';
  // A tool its server keeps from the model has no model switch to offer: the row says who calls it.
  const modelSees = forModel(tool);
  if (modelSees) {
    item.checkboxState = {
      state: switches.toolSwitchedOn(tool)
        ? vscode.TreeItemCheckboxState.Checked
        : vscode.TreeItemCheckboxState.Unchecked,
      tooltip: why ? `Not sent to the model: ${why}` : 'Sent to the model: uncheck to switch it off for this workspace',
    };
  }
  // The marks first: a narrow sidebar cuts the end of the row, and the wire name is also in the tooltip.
  const notes = [
    modelSees
      ? undefined
      : tool.leftOutByEntry
        ? "not in its entry's tools"
        : forApp(tool)
          ? 'apps only'
          : 'not for the model',
    pinned ? 'pinned' : undefined,
    wire && loaded?.has(wire) ? 'loaded' : undefined,
    tool.renamed ? 'renamed' : undefined,
    why ? 'off' : undefined,
    tool.title,
    wire && wire !== tool.name ? wire : undefined,
  ].filter(Boolean);
  if (notes.length) item.description = notes.join(' · ');
  item.iconPath = icons?.path(tool.icons) ?? new vscode.ThemeIcon(tool.renamed ? 'symbol-namespace' : 'symbol-method');
  // Its schema in a code block is the heaviest part of a row: VS Code would send and parse 100 of
  // them when a server expands (half the bytes, and most of the extension host's time); hovered, one.
  toolTooltips.set(item, tool);
  return item;
}

/** The tooltip of a tool row, made when it is hovered; undefined for any other row. */
export function toolTooltipOf(item: vscode.TreeItem, registry: ToolRegistry): vscode.MarkdownString | undefined {
  const tool = toolTooltips.get(item);
  if (!tool) return undefined;
  const wire = registry.wireName(tool.name);
  const md = new vscode.MarkdownString();
  // Names come from the server: set as text (a backtick or bracket in one could otherwise open a link).
  md.appendMarkdown(`**${markdownText(tool.name)}**`);
  if (tool.title) md.appendMarkdown(` — ${markdownText(tool.title)}`);
  if (tool.remoteName && tool.remoteName !== tool.name)
    md.appendMarkdown(markdownText(` (server name "${tool.remoteName}")`));
  if (wire && wire !== tool.name) md.appendMarkdown(`\n\n${markdownText(`sent to models as "${wire}"`)}`);
  if (tool.renamed) md.appendMarkdown(`\n\n$(info) ${markdownText(tool.renamed)}`);
  if (!forModel(tool))
    md.appendMarkdown(
      `\n\n$(eye-closed) ${forApp(tool) ? 'Its server keeps it for its apps: never sent to the model; an app of this server calls it.' : 'Its server keeps it from the model and from apps.'}`,
    );
  if (tool.description) md.appendMarkdown(`\n\n${markdownText(tool.description)}`);
  md.appendCodeblock(JSON.stringify(tool.parameters, null, 2), 'json');
  md.supportThemeIcons = true;
  return md;
}
