import * as vscode from 'vscode';
import type { McpSkill } from '../core/mcp/features/skills';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import { markdownCode, markdownText } from '../shared/markdownText';
import type { Node } from './treeNode';

type SkillsNode = Extract<Node, { kind: 'skills' }>;
type SkillNode = Extract<Node, { kind: 'skill' }>;

/** A running server's Skills row, when it offers skills (the Skills extension). */
export function skillsGroup(hub: ServerHub, server: string): Node[] {
  return skillsOf(hub, server).length ? [{ kind: 'skills', server }] : [];
}

/** The skills under a server's Skills row. */
export function skillNodes(hub: ServerHub, node: SkillsNode): Node[] {
  return skillsOf(hub, node.server).map((s): Node => ({ kind: 'skill', server: node.server, uri: s.uri }));
}

/** The skill a row stands for, while its server still offers it. */
export function skillOf(hub: ServerHub, node: SkillNode): McpSkill | undefined {
  return skillsOf(hub, node.server).find((s) => s.uri === node.uri);
}

function skillsOf(hub: ServerHub, server: string): McpSkill[] {
  return hub.catalog.skills().filter((s) => s.server === server);
}

export function skillsItem(hub: ServerHub, node: SkillsNode): vscode.TreeItem {
  const count = skillsOf(hub, node.server).length;
  const item = new vscode.TreeItem('Skills', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `skills:${node.server}`;
  item.description = String(count);
  item.iconPath = new vscode.ThemeIcon('book');
  item.tooltip = `${count} skill${count === 1 ? '' : 's'} of "${node.server}": instructions the model loads when a task needs them (load_skill asks first).`;
  item.contextValue = 'skills';
  return item;
}

/** A skill's row: its name and what it is for (the server's words, as text); a click reads it. */
export function skillItem(hub: ServerHub, node: SkillNode): vscode.TreeItem {
  const skill = skillOf(hub, node);
  const item = new vscode.TreeItem(skill?.name ?? node.uri);
  item.id = `skill:${node.server}:${node.uri}`;
  item.description = skill?.description.split('\n')[0]?.slice(0, 80);
  item.iconPath = new vscode.ThemeIcon('lightbulb');
  item.contextValue = 'skill';
  if (skill) {
    const tooltip = new vscode.MarkdownString(
      [
        `**${markdownText(skill.name)}** of server ${markdownText(`"${skill.server}"`)}`,
        markdownText(skill.description),
        `${skill.files} files, ${skill.bytes} bytes · ${markdownCode(skill.uri)}`,
        skill.digest ? `SKILL.md ${markdownCode(skill.digest)}` : 'a "dynamic" skill: its files are not listed',
      ].join('\n\n'),
    );
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: `skill ${skill.name} of server ${skill.server}: ${skill.description}` };
  }
  item.command = { command: 'minagent.readSkill', title: 'Read Skill', arguments: [node] };
  return item;
}
