/**
 * The messages between an app's editor tab (a page that frames one app) and the host: the page
 * reports its look and relays the app's JSON-RPC messages; the host says where the app is served and
 * relays its bridge's messages back. Both sides check what they get, as the chat's protocol does.
 */
import { isObj, isStr } from './check';
import type { AppLook } from './protocol';
import { parseAppLook, parseAppMessage } from './validateApps';

/** The tab's page to the host. */
export type AppTabRequest =
  /** The page is up and looks like this: serve the app. */
  | { type: 'appReady'; look: AppLook }
  | { type: 'appLook'; look: AppLook }
  | { type: 'appMessage'; message: Record<string, unknown> };

/** The host to the tab's page. */
export type AppTabMessage =
  | { type: 'appFrame'; url?: string; error?: string }
  | { type: 'appMessage'; message: Record<string, unknown> };

export function parseAppTabRequest(m: unknown): AppTabRequest | undefined {
  if (!isObj(m)) return undefined;
  if (m.type === 'appReady' || m.type === 'appLook') {
    const look = parseAppLook(m.look);
    return look ? { type: m.type, look } : undefined;
  }
  if (m.type === 'appMessage') {
    const message = parseAppMessage(m.message);
    return message ? { type: 'appMessage', message } : undefined;
  }
  return undefined;
}

export function parseAppTabMessage(m: unknown): AppTabMessage | undefined {
  if (!isObj(m)) return undefined;
  if (m.type === 'appFrame')
    return (m.url === undefined || (isStr(m.url) && /^https?:\/\//.test(m.url))) &&
      (m.error === undefined || isStr(m.error))
      ? { type: 'appFrame', ...(isStr(m.url) ? { url: m.url } : {}), ...(isStr(m.error) ? { error: m.error } : {}) }
      : undefined;
  if (m.type === 'appMessage') {
    const message = parseAppMessage(m.message);
    return message ? { type: 'appMessage', message } : undefined;
  }
  return undefined;
}
