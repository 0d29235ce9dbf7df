import * as vscode from 'vscode';
import type { TurnRunner } from '../../core/chat/turns';

/**
 * "MinAgent: Stop Chat Response": stops the chat's running turn, and says so when none runs
 * (rather than doing nothing).
 */
export function registerStopChat(runner: TurnRunner, stop: () => void): vscode.Disposable {
  let busy = 0;
  const sub = runner.onDidChangeBusy((e) => (busy = Math.max(0, busy + (e.busy ? 1 : -1))));
  const command = vscode.commands.registerCommand('minagent.stopChat', () => {
    if (!busy) {
      void vscode.window.showInformationMessage('MinAgent: no chat response is running; nothing to stop.');
      return;
    }
    stop();
  });
  return vscode.Disposable.from(sub, command);
}
