import * as vscode from 'vscode';
import type { ChatRouter } from '../../core/chat/router';
import type { ConversationInfo } from '../../core/chat/conversation/conversationStore';

interface Item extends vscode.QuickPickItem {
  info: ConversationInfo;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

/**
 * The chat history, as Copilot Chat shows it: a quick pick of the kept conversations (most recent
 * first); picking one reopens it, and each row has Rename and Delete buttons.
 */
export async function showChatHistory(chat: ChatRouter): Promise<void> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'MinAgent: Chat History';
  pick.placeholder = 'Open a conversation';
  pick.matchOnDescription = true;
  const fill = async () => {
    const list = await chat.conversations();
    pick.items = list.map((info) => ({
      info,
      // A title is text the user typed; codicon syntax in it is shown as typed, not as an icon.
      label: (info.title || 'Untitled chat').replace(/\$\(/g, '$\u200b('),
      description: `${info.current ? 'current · ' : ''}${when(info.updatedAt)}`,
      buttons: [RENAME, DELETE],
    }));
  };
  await fill();
  const done = new Promise<void>((resolve) => {
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      pick.hide();
      if (item)
        void chat
          .openConversation(item.info.id)
          .catch((err: unknown) => void vscode.window.showErrorMessage(`MinAgent: ${(err as Error).message}`));
    });
    pick.onDidTriggerItemButton(async ({ item, button }) => {
      if (button === DELETE) {
        await chat.deleteConversation(item.info.id);
        await fill();
        return;
      }
      pick.hide();
      const title = await vscode.window.showInputBox({
        title: 'Rename Chat',
        value: item.info.title,
        prompt: 'Empty: named after its first message again',
        ignoreFocusOut: true,
      });
      if (title !== undefined) await chat.renameConversation(item.info.id, title);
      void showChatHistory(chat);
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
  });
  pick.show();
  if (!pick.items.length) pick.placeholder = 'No conversations yet: what you ask in the chat is kept here';
  return done;
}

function when(time: number): string {
  const minutes = Math.round((Date.now() - time) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return new Date(time).toLocaleDateString();
}
