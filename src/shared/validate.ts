/**
 * Checks messages that cross the webview boundary, in both directions, against the protocol's
 * discriminated unions. Anything else (unknown type, missing or extra-typed field) is dropped by the
 * receiver. Hand-written from check.ts (a schema library would be most of the webview's bundle for ten
 * shapes); the shapes built with `shape` follow their types, so the two cannot drift apart.
 */
import { arrayOf, isBool, isCount, isNum, isObj, isStr, listOf, maybe, oneOf, opt, shape } from './check';
import { CARD_ICON, MAX_CARD_ICON_CHARS } from './protocol';
import type {
  ApprovalDecision,
  AttachmentChip,
  BudgetView,
  CardResource,
  ChatMeta,
  ChatState,
  ExamplePrompt,
  HostMessage,
  ModelChoice,
  ToolCard,
  TranscriptItem,
  WebviewMessage,
} from './protocol';
import { isPromptChoice, isPromptMessage, parsePromptRequest } from './validatePrompts';
import { isAskView, parseAskAnswer } from './askValidate';
import { parseAppHostMessage, parseAppRequest } from './validateApps';

/** Longest text a view may send: a message, an id. Longer is not a mistake a user makes. */
const MAX_TEXT = 1_000_000;
const MAX_ID = 200;
const isId = (v: unknown): v is string => isStr(v) && v.length > 0 && v.length <= MAX_ID;
const DECISIONS: readonly ApprovalDecision[] = ['once', 'chat', 'always', 'deny'];

/** A message from a webview, or undefined when it is not one the host accepts. */
export function parseWebviewMessage(m: unknown): WebviewMessage | undefined {
  if (!isObj(m) || !isNum(m.requestId) || !Number.isSafeInteger(m.requestId)) return undefined;
  switch (m.type) {
    case 'ready':
    case 'retry':
    case 'editLast':
    case 'undoEdit':
    case 'stop':
    case 'newChat':
    case 'export':
    case 'setupModel':
    case 'continue':
      return { type: m.type, requestId: m.requestId };
    case 'send':
      return isStr(m.text) && m.text.trim() !== '' && m.text.length <= MAX_TEXT
        ? { type: 'send', text: m.text, requestId: m.requestId }
        : undefined;
    case 'approve':
      return isId(m.callId) && DECISIONS.includes(m.decision as ApprovalDecision)
        ? { type: 'approve', callId: m.callId, decision: m.decision as ApprovalDecision, requestId: m.requestId }
        : undefined;
    case 'focus':
      return isBool(m.focused) ? { type: 'focus', focused: m.focused, requestId: m.requestId } : undefined;
    case 'draft':
      // Empty is a draft too (the input was cleared); the meter measures at most MAX_TEXT of it.
      return isStr(m.text) && m.text.length <= MAX_TEXT
        ? { type: 'draft', text: m.text, requestId: m.requestId }
        : undefined;
    case 'selectModel':
      return isId(m.id) ? { type: 'selectModel', id: m.id, requestId: m.requestId } : undefined;
    case 'openResult':
      return isId(m.callId) ? { type: 'openResult', callId: m.callId, requestId: m.requestId } : undefined;
    case 'task':
      return isId(m.callId) && (m.action === 'background' || m.action === 'stop')
        ? { type: 'task', callId: m.callId, action: m.action, requestId: m.requestId }
        : undefined;
    case 'openLink':
      return isStr(m.uri) && m.uri.length <= 2048 && /^[a-z][a-z0-9+.-]*:/i.test(m.uri)
        ? { type: 'openLink', uri: m.uri, requestId: m.requestId }
        : undefined;
    case 'openResource':
      return isId(m.callId) && isNum(m.index) && Number.isInteger(m.index) && m.index >= 0 && m.index < 1000
        ? { type: 'openResource', callId: m.callId, index: m.index, requestId: m.requestId }
        : undefined;
    case 'detach':
      return isId(m.id) ? { type: 'detach', id: m.id, requestId: m.requestId } : undefined;
    case 'completePrompt':
    case 'runPrompt':
      return parsePromptRequest(m, m.requestId);
    case 'answerAsk': {
      const answer = parseAskAnswer(m.answer);
      return isId(m.id) && answer ? { type: 'answerAsk', id: m.id, answer, requestId: m.requestId } : undefined;
    }
    default:
      return parseAppRequest(m, m.requestId);
  }
}

/** What a message the host dropped was, for a log line: its type (cut short) or what kind of value. */
export function describeDropped(raw: unknown): string {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? `type "${type.slice(0, 40)}"` : typeof raw;
}

const STATUSES = new Set(['waiting', 'running', 'done', 'error', 'denied', 'cancelled']);
const LEVELS = new Set(['info', 'warning', 'error']);

const isCardResource = shape<CardResource>({
  kind: oneOf(['link', 'embedded']),
  server: isStr,
  uri: isStr,
  label: isStr,
  mimeType: maybe(isStr),
  size: maybe(isNum),
  text: maybe(isStr),
});

export const isCardIcon = (v: unknown): v is string => isStr(v) && v.length <= MAX_CARD_ICON_CHARS && CARD_ICON.test(v);

function isCard(c: unknown): c is ToolCard {
  if (!isObj(c)) return false;
  const p = c.progress;
  return (
    isStr(c.callId) &&
    isStr(c.name) &&
    isStr(c.wireName) &&
    opt(c.server, isStr) &&
    isStr(c.arguments) &&
    STATUSES.has(c.status as string) &&
    isNum(c.startedAt) &&
    opt(c.result, isStr) &&
    opt(c.resultChars, isNum) &&
    opt(c.durationMs, isNum) &&
    opt(c.approval, isStr) &&
    opt(c.found, arrayOf(isStr)) &&
    opt(p, (v) => isObj(v) && isNum(v.progress) && opt(v.total, isNum) && opt(v.message, isStr)) &&
    opt(
      c.images,
      arrayOf((i) => isObj(i) && isStr(i.mimeType) && isStr(i.data)),
    ) &&
    opt(c.resources, arrayOf(isCardResource)) &&
    opt(c.title, isStr) &&
    opt(c.icon, isCardIcon) &&
    opt(c.task, (t) => isObj(t) && isStr(t.id) && isStr(t.tool) && opt(t.background, isBool)) &&
    opt(
      c.app,
      (a) =>
        isObj(a) &&
        isStr(a.resourceUri) &&
        a.resourceUri.startsWith('ui://') &&
        opt(a.result, isObj) &&
        opt(a.allowed, (v) => v === true) &&
        opt(a.partial, (v) => v === true) &&
        opt(a.context, isStr),
    )
  );
}

export function isTranscriptItem(i: unknown): i is TranscriptItem {
  if (!isObj(i) || !isStr(i.id)) return false;
  switch (i.kind) {
    case 'user':
      return isStr(i.text) && opt(i.attachments, arrayOf(isStr)) && opt(i.model, isStr) && opt(i.deferred, isBool);
    case 'assistant':
      return isStr(i.text) && opt(i.streaming, isBool) && opt(i.cut, isBool);
    case 'tool':
      return isCard(i.card);
    case 'notice':
      return LEVELS.has(i.level as string) && isStr(i.text);
    case 'taskOutcome':
      return (
        isStr(i.card) &&
        isStr(i.name) &&
        isStr(i.server) &&
        ['done', 'error', 'cancelled'].includes(i.status as string) &&
        isStr(i.text)
      );
    case 'prompt':
      return (
        isStr(i.name) &&
        isStr(i.server) &&
        arrayOf(isPromptMessage)(i.messages) &&
        opt(i.model, isStr) &&
        opt(i.deferred, isBool)
      );
    default:
      return false;
  }
}

const isChip = shape<AttachmentChip>({
  id: isId,
  server: isStr,
  uri: isStr,
  label: isStr,
  tokens: isCount,
  exact: isBool,
});
const isModel = shape<ModelChoice>({ id: isStr, label: isStr, detail: maybe(isStr) });
const isExample = shape<ExamplePrompt>({ tool: isStr, server: maybe(isStr), prompt: isStr, description: maybe(isStr) });

function isMeta(s: unknown): s is ChatMeta {
  return (
    isObj(s) &&
    arrayOf(isModel)(s.models) &&
    opt(s.selectedModel, isStr) &&
    opt(s.setupHint, isStr) &&
    opt(s.trustNotice, isStr) &&
    opt(s.modelNotice, isStr) &&
    opt(s.examples, arrayOf(isExample)) &&
    opt(s.attachments, arrayOf(isChip))
  );
}

function isState(s: unknown): s is ChatState {
  return isMeta(s) && isObj(s) && arrayOf(isTranscriptItem)(s.items) && isBool(s.busy);
}

const isBudget = shape<BudgetView>({
  window: isCount,
  windowSource: isStr,
  reserve: isCount,
  counter: isStr,
  exact: isBool,
  system: isCount,
  tools: listOf(shape<BudgetView['tools'][number]>({ server: isStr, tokens: isCount, count: isCount })),
  history: isCount,
  historyFull: isCount,
  message: isCount,
  total: isCount,
  trimmed: maybe(isStr),
  over: maybe(isStr),
  deferred: maybe(shape<NonNullable<BudgetView['deferred']>>({ count: isCount, tokens: isCount })),
});

/** A message from the host, or undefined (the webview drops it). */
export function parseHostMessage(m: unknown): HostMessage | undefined {
  if (!isObj(m)) return undefined;
  switch (m.type) {
    case 'state':
      return isState(m.state) ? (m as HostMessage) : undefined;
    case 'meta':
      return isMeta(m.meta) ? (m as HostMessage) : undefined;
    case 'append':
    case 'update':
      return isTranscriptItem(m.item) ? (m as HostMessage) : undefined;
    case 'textDelta':
      return isStr(m.id) && isStr(m.delta) ? (m as HostMessage) : undefined;
    case 'remove':
      return isStr(m.id) ? (m as HostMessage) : undefined;
    case 'notSent':
      return isStr(m.text) && isStr(m.reason) ? (m as HostMessage) : undefined;
    case 'editDraft':
      return isStr(m.text) && opt(m.undoable, isBool) ? (m as HostMessage) : undefined;
    case 'appSaid':
      return isStr(m.text) ? (m as HostMessage) : undefined;
    case 'busy':
      return isBool(m.busy) ? (m as HostMessage) : undefined;
    case 'focusInput':
      return m as HostMessage;
    case 'budget':
      // undefined: nothing to measure against (no model); the meter hides.
      return m.budget === undefined || isBudget(m.budget) ? (m as HostMessage) : undefined;
    case 'reply':
      return isNum(m.requestId) && opt(m.error, isStr) ? (m as HostMessage) : undefined;
    case 'prompts':
      return arrayOf(isPromptChoice)(m.prompts) ? (m as HostMessage) : undefined;
    case 'completions':
      return isNum(m.requestId) && arrayOf(isStr)(m.values) && opt(m.error, isStr) ? (m as HostMessage) : undefined;
    case 'ask':
      return isAskView(m.ask) ? (m as HostMessage) : undefined;
    case 'askDone':
      return isStr(m.id) && isStr(m.outcome) ? (m as HostMessage) : undefined;
    default:
      return parseAppHostMessage(m);
  }
}
