import * as vscode from 'vscode';
import type { Attachments } from '../core/chat/attachments';
import { isFeatureError } from '../core/mcp/features/featureTypes';
import type { ServerHub } from '../core/mcp/hub/serverHub';
import type { ResultDocuments } from './resultDocuments';
import { skillOf } from './skillRows';
import type { Node } from './treeNode';

/**
 * A skill's row: Read Skill opens its SKILL.md, read checked against its entry, in a read-only editor; Load into Chat
 * attaches it (checked the same way) to the next chat message.
 */
export function skillCommands(hub: ServerHub, attachments: Attachments, results: ResultDocuments): vscode.Disposable[] {
  const picked = (node: unknown) => {
    const skill = isSkillNode(node) ? skillOf(hub, node) : undefined;
    if (!skill) void vscode.window.showWarningMessage('MinAgent: that skill is no longer offered by its server.');
    return skill;
  };
  return [
    vscode.commands.registerCommand('minagent.readSkill', async (node?: unknown) => {
      const skill = picked(node);
      if (!skill) return;
      const file = await hub.catalog.readSkill(skill.server, skill.uri);
      if (isFeatureError(file)) {
        void vscode.window.showErrorMessage(`MinAgent: ${file.error}`);
        return;
      }
      await results.open(`skill ${skill.name} · ${skill.server}`, file.text, 'markdown');
    }),
    vscode.commands.registerCommand('minagent.loadSkillIntoChat', async (node?: unknown) => {
      const skill = picked(node);
      if (!skill) return;
      const failed = await attachments.add(skill.server, skill.uri, `skill ${skill.name}`);
      if (failed) {
        void vscode.window.showErrorMessage(`MinAgent: could not attach skill ${skill.name}: ${failed.error}`);
        return;
      }
      await vscode.commands.executeCommand('minagent.chat.focus');
    }),
  ];
}

function isSkillNode(node: unknown): node is Extract<Node, { kind: 'skill' }> {
  return (
    typeof node === 'object' &&
    node !== null &&
    (node as Node).kind === 'skill' &&
    typeof (node as { uri?: unknown }).uri === 'string'
  );
}
