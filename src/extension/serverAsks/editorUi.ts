import * as vscode from 'vscode';
import type {
  ClientRequestUi,
  FormAnswer,
  SamplingAnswer,
  SamplingAsk,
  UrlAnswer,
  UrlDone,
} from '../../core/mcp/clientRequests/ui';
import type { ChatAsks } from './chatAsks';
import { quickForm } from './quickForm';
import { inTryTool } from './tryToolScope';

/**
 * The editor's side of servers' requests. A form goes to the chat as a card (or to quick inputs
 * when it comes during the tree's Try Tool, or when no chat is open); a URL is a modal that shows
 * it in full with its host and opens it only on "Open"; a sampling request is a card in the chat,
 * or a modal when no chat is open.
 */
export class EditorClientRequestUi implements ClientRequestUi {
  constructor(private readonly chat: () => { asks: ChatAsks; open: boolean } | undefined) {}

  async askForm(
    ask: Parameters<ClientRequestUi['askForm']>[0],
    validate: Parameters<ClientRequestUi['askForm']>[1],
    signal: AbortSignal,
  ): Promise<FormAnswer> {
    const chat = this.chat();
    if (!chat?.open || inTryTool(ask.server)) return quickForm(ask, validate, signal);
    const answer = await chat.asks.ask(
      { kind: 'form', server: ask.server, message: ask.message, fields: ask.fields },
      signal,
    );
    if (answer?.action === 'accept') return { action: 'accept', content: answer.content };
    return { action: answer?.action === 'decline' ? 'decline' : 'cancel' };
  }

  async askUrl(ask: Parameters<ClientRequestUi['askUrl']>[0]): Promise<UrlAnswer> {
    const choice = await vscode.window.showWarningMessage(
      `Server "${ask.server}" asks you to open ${ask.host}`,
      { modal: true, detail: `${ask.message}\n\nURL: ${ask.url}\nHost: ${ask.host}` },
      'Open',
      'Decline',
    );
    return choice === 'Open' ? 'accept' : choice === 'Decline' ? 'decline' : 'cancel';
  }

  openUrl(url: string): Promise<boolean> {
    return Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true)));
  }

  /** Not modal: the user works in the browser meanwhile. Closing the notification is Cancel; so is the call's end. */
  async awaitUrlDone(ask: Parameters<ClientRequestUi['awaitUrlDone']>[0], signal: AbortSignal): Promise<UrlDone> {
    if (signal.aborted) return 'cancel';
    let onAbort: (() => void) | undefined;
    const ended = new Promise<undefined>((resolve) =>
      signal.addEventListener('abort', (onAbort = () => resolve(undefined))),
    );
    try {
      const choice = await Promise.race([
        vscode.window.showInformationMessage(
          `Server "${ask.server}" waits while you finish on ${ask.host}. Say Done when you have.`,
          'Done',
          'Cancel',
        ),
        ended,
      ]);
      return choice === 'Done' ? 'done' : 'cancel';
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async approveSampling(ask: SamplingAsk, signal: AbortSignal): Promise<SamplingAnswer> {
    const chat = this.chat();
    if (chat?.open) {
      const answer = await chat.asks.ask({ kind: 'sampling', ...ask }, signal);
      return answer?.action === 'allow' ? { allow: true, remember: answer.remember } : { allow: false };
    }
    const always = ask.app !== undefined ? 'Always Allow This App' : 'Always Allow This Server';
    const detail = [
      `Model: ${ask.model}, up to ${ask.maxTokens} tokens (this server's limit: ${ask.limit})`,
      ...(ask.systemPrompt ? [`System prompt: ${ask.systemPrompt}`] : []),
      ...ask.messages.map((m) => `${m.role}: ${m.text}`),
    ].join('\n\n');
    const choice = await vscode.window.showWarningMessage(
      ask.app !== undefined
        ? `The app of tool "${ask.app}" (server "${ask.server}") asks to send this to your model`
        : `Server "${ask.server}" asks to send this to your model`,
      { modal: true, detail },
      'Allow Once',
      always,
    );
    return choice === 'Allow Once'
      ? { allow: true, remember: false }
      : choice === always
        ? { allow: true, remember: true }
        : { allow: false };
  }
}
