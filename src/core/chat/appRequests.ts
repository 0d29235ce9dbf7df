import type { WebviewMessage } from '../../shared/protocol';
import type { ChatAppsActions, Post } from './chatActions';
import type { Conversation } from './conversation/conversation';

type AppRequest = Extract<
  WebviewMessage,
  {
    type:
      | 'appOpen'
      | 'appMessage'
      | 'appClosed'
      | 'appTeardown'
      | 'appCallEnded'
      | 'appInput'
      | 'appFullscreen'
      | 'appConsent'
      | 'appMode'
      | 'appLook';
  }
>;

/** A view's MCP App message, to the chat's apps: an app opens only for a card of the conversation that has one. */
export async function routeAppRequest(
  message: AppRequest,
  post: Post,
  apps: ChatAppsActions | undefined,
  current: () => Promise<Conversation>,
): Promise<void> {
  switch (message.type) {
    case 'appOpen': {
      const item = (await current()).find(message.callId);
      if (item?.kind !== 'tool' || !item.card.app || !apps) throw new Error('that card has no app');
      return apps.open(item.card, message.look, post, message.pip === true);
    }
    case 'appMessage':
      return apps?.message(post, message.callId, message.message);
    case 'appClosed':
      return apps?.close(post, message.callId);
    case 'appTeardown':
      return apps?.teardown(post, message.callId);
    case 'appInput': {
      const item = (await current()).find(message.callId);
      if (item?.kind === 'tool' && item.card.app) apps?.input(post, item.card);
      return;
    }
    case 'appCallEnded': {
      // The card as the conversation holds it: its result (or how it ended) is the host's, never the page's word.
      const item = (await current()).find(message.callId);
      if (item?.kind === 'tool' && item.card.app) apps?.callEnded(post, item.card);
      return;
    }
    case 'appFullscreen':
      return apps?.fullscreen(post, message.callId);
    case 'appConsent':
      return apps?.consent(post, message.callId, message.show);
    case 'appMode':
      return apps?.mode(post, message.callId, message.pip ? 'pip' : 'inline');
    case 'appLook':
      return apps?.look(post, message.look);
  }
}
