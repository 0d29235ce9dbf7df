/**
 * Checks for the ask messages of the webview protocol (see asks.ts), in the style of validate.ts:
 * a message of the wrong shape is dropped by its receiver.
 */
import type { FieldValue, FormField } from './form';
import type { AskAnswer, AskView } from './asks';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const opt = (v: unknown, check: (v: unknown) => boolean): boolean => v === undefined || check(v);
const MAX_FIELDS = 50;
const MAX_VALUE = 100_000;

const isValue = (v: unknown): v is FieldValue =>
  (isStr(v) && v.length <= MAX_VALUE) || isNum(v) || typeof v === 'boolean' || (Array.isArray(v) && v.length <= 100 && v.every((x) => isStr(x) && x.length <= 1000));

/** An answer from a webview card, or undefined. Only plain data: no keys beyond the form's size. */
export function parseAskAnswer(a: unknown): AskAnswer | undefined {
  if (!isObj(a)) return undefined;
  switch (a.action) {
    case 'decline':
    case 'cancel':
    case 'deny':
      return { action: a.action };
    case 'allow':
      return typeof a.remember === 'boolean' ? { action: 'allow', remember: a.remember } : undefined;
    case 'accept': {
      if (!isObj(a.content)) return undefined;
      const entries = Object.entries(a.content);
      if (entries.length > MAX_FIELDS || !entries.every(([k, v]) => k.length <= 100 && isValue(v))) return undefined;
      return { action: 'accept', content: Object.fromEntries(entries) as Record<string, FieldValue> };
    }
    default:
      return undefined;
  }
}

const KINDS = new Set(['string', 'number', 'boolean', 'enum', 'multi']);
const isField = (f: unknown): f is FormField =>
  isObj(f) && isStr(f.name) && isStr(f.label) && KINDS.has(f.kind as string) && typeof f.required === 'boolean' && opt(f.description, isStr) && opt(f.options, (o) => Array.isArray(o) && o.every((x) => isObj(x) && isStr(x.value) && isStr(x.label)));

/** An ask from the host, or undefined (the webview drops it). */
export function isAskView(v: unknown): v is AskView {
  if (!isObj(v) || !isStr(v.id) || !isStr(v.server)) return false;
  if (v.kind === 'form') return isStr(v.message) && Array.isArray(v.fields) && v.fields.every(isField);
  if (v.kind === 'sampling') return isStr(v.model) && isNum(v.maxTokens) && isNum(v.limit) && opt(v.systemPrompt, isStr) && Array.isArray(v.messages) && v.messages.every((m) => isObj(m) && (m.role === 'user' || m.role === 'assistant') && isStr(m.text));
  return false;
}
