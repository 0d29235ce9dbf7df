import * as vscode from 'vscode';
import { AppDocuments } from '../../core/apps/appDocuments';
import type { ChatAppsActions } from '../../core/chat/chatActions';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import { AppServer } from '../apps/appServer';
import { ChatApps, type ChatAppsDeps } from '../apps/chatApps';
import { appsEnabled } from '../apps/enabled';
import type { AppOrigin } from '../chat/views';

/**
 * The chat's MCP Apps: the loopback server their documents come from (through the editor's forwarding
 * where the browser is elsewhere: code-server, a remote window), the documents read from their
 * servers, and the live apps per view. The app server starts with the chat (a listening socket);
 * the chat's pages load once its origin is known.
 */
export function startApps(
  subscriptions: vscode.Disposable[],
  hub: ServerHub,
  deps: ChatAppsDeps,
): { actions: ChatAppsActions; origin: AppOrigin } {
  // A sandboxed server's apps reach no host its sandbox does not (THREATS.md, class 6).
  const documents = new AppDocuments({
    readResource: (server, uri) => hub.catalog.readResource(server, uri),
    onDidUpdateResource: (listener) => hub.catalog.onDidUpdateResource(listener),
    sandboxDomains: (server) => hub.server(server)?.sandbox?.allowedDomains,
  });
  subscriptions.push(documents);
  // Known once started, so a conversation change with no app running waits for nothing.
  let started: ChatApps | undefined;
  const ready: Promise<ChatApps | undefined> = appsEnabled()
    ? AppServer.start(async (loopback) =>
        (await vscode.env.asExternalUri(vscode.Uri.parse(loopback))).toString(true),
      ).then(
        (server) => {
          const apps = new ChatApps(hub, server, documents, deps);
          subscriptions.push(apps, { dispose: () => server.dispose() });
          started = apps;
          return apps;
        },
        (err: Error) => {
          deps.log.warn(`apps: the app server did not start (${err.message}); apps show as text`);
          return undefined;
        },
      )
    : Promise.resolve(undefined);
  const unavailable = (post: Parameters<ChatAppsActions['open']>[2], callId: string) =>
    post({ type: 'appFrame', callId, error: 'apps are off ("minagent.apps.enabled"): the result is shown as text' });
  return {
    origin: ready.then((apps) => apps?.origin),
    actions: {
      open: async (card, look, post, pip) => {
        const apps = await ready;
        return apps ? apps.open(card, look, post, pip) : unavailable(post, card.callId);
      },
      message: (post, callId, message) => void ready.then((apps) => apps?.message(post, callId, message)),
      close: (post, callId) => void ready.then((apps) => apps?.close(post, callId)),
      teardown: async (post, callId) => (await ready)?.teardown(post, callId),
      teardownAll: () => started?.teardownAll(),
      callEnded: (post, card) => void ready.then((apps) => apps?.callEnded(post, card)),
      input: (post, card) => void ready.then((apps) => apps?.input(post, card)),
      fullscreen: (post, callId) => void ready.then((apps) => apps?.fullscreen(post, callId)),
      consent: async (post, callId, show) => (await ready)?.consent(post, callId, show),
      mode: (post, callId, mode) => void ready.then((apps) => apps?.mode(post, callId, mode)),
      look: (post, look) => void ready.then((apps) => apps?.look(post, look)),
      viewClosed: (post) => void ready.then((apps) => apps?.viewClosed(post)),
    },
  };
}
