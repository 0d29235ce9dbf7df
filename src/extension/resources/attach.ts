import * as vscode from 'vscode';
import { Attachments } from '../../core/chat/attachments';
import { estimateCounter } from '../../core/budget/tokens';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { isFeatureError, type FeatureError, type ReadResourceResult } from '../../core/mcp/features/featureTypes';
import type { ModelChoices } from '../chat/models';
import { setting } from '../trustedSettings';
import { resolveResource } from './resourceCommands';
import type { ResourceTreeProvider } from './resourceTree';

/**
 * "Add to Chat": the resources attached to the next chat message, sized by the selected model's
 * token counter (the budget's tokenizer; an estimate when no model is set up), and the command
 * that attaches one from the Resources view (a template is filled first) or the palette.
 */
export function createAttachments(
  hub: ServerHub,
  models: ModelChoices,
  tree: ResourceTreeProvider,
): { attachments: Attachments; command: vscode.Disposable } {
  const attachments = new Attachments({
    read: (server, uri) => readChecked(hub, server, uri),
    counter: async () => {
      try {
        const model = await models.create({ withKey: false });
        return (await model.limits?.())?.counter ?? estimateCounter;
      } catch {
        return estimateCounter;
      }
    },
    maxChars: () => setting<number>('maxOutputChars', 50_000),
  });
  const command = vscode.commands.registerCommand('minagent.addResourceToChat', async (node?: unknown) => {
    const picked = await resolveResource(hub, tree, node, 'Add Resource to Chat', { documentsOnly: true });
    if (!picked) return;
    const failed = await vscode.window.withProgress(
      { location: { viewId: 'minagent.resources' }, title: `Reading ${picked.label}` },
      () => attachments.add(picked.server, picked.uri, picked.label),
    );
    if (failed) {
      void vscode.window.showErrorMessage(`MinAgent: could not attach ${picked.label}: ${failed.error}`);
      return;
    }
    await vscode.commands.executeCommand('minagent.chat.focus');
  });
  return { attachments, command };
}

/**
 * A resource to attach, as its server serves it; a skill's SKILL.md (Load into Chat on a skill's row) read checked
 * against the skill's entry, so what is attached is what the entry lists.
 */
async function readChecked(hub: ServerHub, server: string, uri: string): Promise<ReadResourceResult | FeatureError> {
  if (!hub.catalog.skills().some((s) => s.server === server && s.uri === uri))
    return hub.catalog.readResource(server, uri);
  const file = await hub.catalog.readSkill(server, uri);
  if (isFeatureError(file)) return file;
  const size = Buffer.byteLength(file.text, 'utf8');
  return { server, uri, contents: [{ uri: file.uri, mimeType: 'text/markdown', text: file.text, size }] };
}
