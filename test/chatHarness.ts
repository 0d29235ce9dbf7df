// The chat host's pieces as the tests drive them: editor actions that do nothing unless a test
// watches them, and a view attached to a router that sends as the webview does.
import type { ChatActions, Post } from '../src/core/chat/chatActions';
import type { ChatRouter } from '../src/core/chat/router';
import type { HostMessage } from '../src/shared/protocol';

/** ChatActions that do nothing (no model listed); a test passes what it watches. */
export function quietActions(overrides: Partial<ChatActions> = {}): ChatActions {
  return {
    meta: () => ({ models: [] }),
    selectModel: async () => undefined,
    decide: () => undefined,
    forgetChatApprovals: () => undefined,
    openText: async () => undefined,
    setupModel: async () => undefined,
    ...overrides,
  };
}

/** The picker's meta with one model, selected. */
export const oneModel = (id: string) => () => ({ models: [{ id, label: id }], selectedModel: id });

/**
 * A view attached to `router`: what it was posted (each message shown to `onPost` first), and `send`,
 * which numbers its requests as the webview does and resolves with what was posted for that request.
 */
export function chatView(router: ChatRouter, onPost?: (m: HostMessage) => void) {
  const got: HostMessage[] = [];
  const post: Post = (m) => {
    onPost?.(m);
    got.push(m);
  };
  const attached = router.attach(post);
  let id = 1;
  return {
    got,
    post,
    close: () => attached.dispose(),
    send: async (m: Record<string, unknown>): Promise<HostMessage[]> => {
      const requestId = id++;
      await router.handle({ ...m, requestId }, post);
      return got.filter((g) => 'requestId' in g && g.requestId === requestId);
    },
    replies: () => got.filter((m): m is Extract<HostMessage, { type: 'reply' }> => m.type === 'reply'),
  };
}
