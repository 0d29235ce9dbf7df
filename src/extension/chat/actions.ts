import type { ResultDocuments } from '../resultDocuments';
import * as vscode from 'vscode';
import { examplePrompts } from '../../core/chat/examples';
import { withContext, type Attachments } from '../../core/chat/attachments';
import type { ChatActions } from '../../core/chat/chatActions';
import type { CardResource, ChatMeta } from '../../shared/protocol';
import type { ResourceDocuments } from '../resources/resourceDocs';
import type { Approvals } from './approvals';
import { SETUP_HINT, type ModelChoices } from './models';
import type { ToolSelection } from './toolSelection';

/** What the chat tells the budget meter (see BudgetMeter). */
export interface BudgetHooks {
  setDraft(text: string): void;
  update(): Promise<void>;
}

/** The editor side of the chat's actions: pickers, editors, commands, and the budget meter. */
/** The resource side of the chat: attachments for the next message, and documents for the cards' resources. */
export interface ChatResources {
  attachments: Attachments;
  docs: ResourceDocuments;
  /** The running server that lists a resource URI, with the name it gives it. */
  listed(uri: string): { server: string; label: string } | undefined;
}

export function vscodeChatActions(
  models: ModelChoices,
  tools: ToolSelection,
  approvals: Approvals,
  results: ResultDocuments,
  budget?: BudgetHooks,
  resources?: ChatResources,
): ChatActions {
  const attachments = resources?.attachments;
  return {
    meta(): ChatMeta {
      const list = models.list();
      const selected = models.selected();
      const trustNotice = models.trustNotice();
      const modelNotice = models.modelNotice();
      const examples = examplePrompts(tools.offered());
      const chips = attachments?.chips() ?? [];
      return {
        ...(chips.length ? { attachments: chips } : {}),
        models: list,
        ...(selected ? { selectedModel: selected } : {}),
        ...(list.length ? {} : { setupHint: SETUP_HINT }),
        ...(trustNotice ? { trustNotice } : {}),
        ...(modelNotice ? { modelNotice } : {}),
        examples,
      };
    },
    selectModel: async (id) => {
      await models.select(id);
    },
    decide: (callId, decision) => approvals.decide(callId, decision),
    forgetChatApprovals: () => approvals.newChat(),
    openText: (content, language, title) => results.open(title, content, language),
    // The chat's keys (New Chat) apply while its page has the focus: VS Code's own focus keys do not see inside a
    // webview view.
    focusChanged: (focused) => void vscode.commands.executeCommand('setContext', 'minagent.chatFocused', focused),
    setupModel: async () => {
      await vscode.commands.executeCommand('minagent.setupModel');
    },
    ...(budget ? { draft: (text: string) => budget.setDraft(text), contextChanged: () => void budget.update() } : {}),
    ...(resources
      ? {
          attachments: resources.attachments,
          openResource: (r: CardResource) =>
            r.kind === 'link'
              ? resources.docs.open({ server: r.server, uri: r.uri }, r.label)
              : resources.docs.openEmbedded(r),
          // A resource URI in the model's text opens only when a running server lists it (no read of an address the
          // model made up).
          openLink: async (uri: string) => {
            const found = resources.listed(uri);
            if (!found) throw new Error(`no running server lists ${uri.slice(0, 200)}: it cannot be opened`);
            await resources.docs.open({ server: found.server, uri }, found.label);
          },
        }
      : {}),
  };
}

/**
 * The meter measures the draft with what is attached to it (as the model would get it), again when a chip comes or
 * goes.
 */
export function draftWithAttachments(budget: BudgetHooks, attachments: Attachments): BudgetHooks {
  let draft = '';
  const measure = () => budget.setDraft(withContext(draft, attachments.peek()));
  attachments.onDidChange(measure);
  return {
    setDraft: (text) => {
      draft = text;
      measure();
    },
    update: () => budget.update(),
  };
}
