/**
 * The checks for the MCP Apps messages of the chat protocol, beside validate.ts. An app's own
 * messages are server-written code talking: each is a bounded JSON-RPC object, and the look a view
 * reports (theme variables read from VS Code's CSS) is bounded too, since it goes back into an app.
 */
import { isNum, isObj, isStr, type Obj } from './check';
import type { AppLook, HostMessage, WebviewMessage } from './protocol';

const MAX_ID = 200;
/** One JSON-RPC message of an app, serialized: a tool result may be large, but not unbounded. */
export const MAX_APP_MESSAGE_CHARS = 1_000_000;
const MAX_VARIABLES = 100;
/** A style value: a colour, a font stack, a size; never a rule or a block. */
const STYLE_VALUE = /^[^;{}<>\\]{0,300}$/;
const STYLE_NAME = /^--[a-z0-9-]{1,60}$/;

const isId = (v: unknown): v is string => isStr(v) && v.length > 0 && v.length <= MAX_ID;

/** A JSON-RPC 2.0 message no larger than MAX_APP_MESSAGE_CHARS; undefined otherwise. */
export function parseAppMessage(v: unknown): Obj | undefined {
  if (!isObj(v) || v.jsonrpc !== '2.0') return undefined;
  if (v.method !== undefined && (!isStr(v.method) || v.method.length > 200)) return undefined;
  let size: number;
  try {
    size = JSON.stringify(v).length;
  } catch {
    return undefined;
  }
  return size <= MAX_APP_MESSAGE_CHARS ? v : undefined;
}

export function parseAppLook(v: unknown): AppLook | undefined {
  if (
    !isObj(v) ||
    (v.theme !== 'light' && v.theme !== 'dark') ||
    !isNum(v.width) ||
    v.width < 0 ||
    v.width > 100_000 ||
    !isObj(v.variables)
  )
    return undefined;
  const entries = Object.entries(v.variables);
  if (entries.length > MAX_VARIABLES) return undefined;
  const variables: Record<string, string> = {};
  for (const [name, value] of entries)
    if (STYLE_NAME.test(name) && isStr(value) && STYLE_VALUE.test(value)) variables[name] = value;
  return { theme: v.theme, width: Math.round(v.width), variables };
}

/** The app messages a view may send; undefined for any other. */
export function parseAppRequest(m: Obj, requestId: number): WebviewMessage | undefined {
  switch (m.type) {
    case 'appOpen': {
      const look = parseAppLook(m.look);
      return isId(m.callId) && look && (m.pip === undefined || m.pip === true)
        ? { type: 'appOpen', callId: m.callId, look, ...(m.pip ? { pip: true } : {}), requestId }
        : undefined;
    }
    case 'appMessage': {
      const message = parseAppMessage(m.message);
      return isId(m.callId) && message ? { type: 'appMessage', callId: m.callId, message, requestId } : undefined;
    }
    case 'appConsent':
      return isId(m.callId) && typeof m.show === 'boolean'
        ? { type: 'appConsent', callId: m.callId, show: m.show, requestId }
        : undefined;
    case 'appMode':
      return isId(m.callId) && typeof m.pip === 'boolean'
        ? { type: 'appMode', callId: m.callId, pip: m.pip, requestId }
        : undefined;
    case 'appClosed':
    case 'appTeardown':
    case 'appCallEnded':
    case 'appInput':
    case 'appFullscreen':
      return isId(m.callId) ? { type: m.type, callId: m.callId, requestId } : undefined;
    case 'appLook': {
      const look = parseAppLook(m.look);
      return look ? { type: 'appLook', look, requestId } : undefined;
    }
    default:
      return undefined;
  }
}

/** The app messages the host may send to a view; undefined for any other. */
export function parseAppHostMessage(m: Obj): HostMessage | undefined {
  switch (m.type) {
    case 'appFrame':
      return isId(m.callId) &&
        (m.url === undefined || (isStr(m.url) && /^https?:\/\//.test(m.url))) &&
        (m.error === undefined || isStr(m.error)) &&
        (m.consent === undefined || isConsent(m.consent))
        ? (m as HostMessage)
        : undefined;
    case 'appMessage':
      return isId(m.callId) && parseAppMessage(m.message) ? (m as HostMessage) : undefined;
    case 'appSize':
      return isId(m.callId) && isNum(m.height) && m.height >= 0 ? (m as HostMessage) : undefined;
    case 'appPlace':
      return isId(m.callId) && (m.place === 'tab' || m.place === 'inline' || m.place === 'pip')
        ? (m as HostMessage)
        : undefined;
    case 'appModes':
      return isId(m.callId) &&
        Array.isArray(m.modes) &&
        m.modes.every((x) => x === 'inline' || x === 'fullscreen' || x === 'pip')
        ? (m as HostMessage)
        : undefined;
    case 'appGone':
      return isId(m.callId) && (m.why === 'paused' || m.why === 'closedByApp') ? (m as HostMessage) : undefined;
    default:
      return undefined;
  }
}

function isConsent(v: unknown): boolean {
  return typeof v === 'object' && v !== null && isStr((v as Obj).server) && isStr((v as Obj).detail);
}
