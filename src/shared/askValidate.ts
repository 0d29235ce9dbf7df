/**
 * Checks for the ask messages of the webview protocol (see asks.ts), in the style of validate.ts:
 * a message of the wrong shape is dropped by its receiver.
 */
import { byKind, isBool, isNum, isObj, isStr, listOf, maybe, oneOf, opt, shape } from './check';
import { FORMATS, type EnumOption, type FieldValue, type FormField } from './form';
import type { AskAnswer, AskView } from './asks';

const MAX_FIELDS = 50;
const MAX_VALUE = 100_000;

const isValue = (v: unknown): v is FieldValue =>
  (isStr(v) && v.length <= MAX_VALUE) ||
  isNum(v) ||
  typeof v === 'boolean' ||
  (Array.isArray(v) && v.length <= 100 && v.every((x) => isStr(x) && x.length <= 1000));

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

type Kind<K extends FormField['kind']> = Extract<FormField, { kind: K }>;
const base = { name: isStr, label: isStr, description: maybe(isStr), required: isBool };
const isOption = shape<EnumOption>({ value: isStr, label: isStr });
const isField = byKind<FormField>({
  string: shape<Kind<'string'>>({
    ...base,
    kind: oneOf(['string']),
    default: maybe(isStr),
    minLength: maybe(isNum),
    maxLength: maybe(isNum),
    format: maybe(oneOf(FORMATS)),
  }),
  number: shape<Kind<'number'>>({
    ...base,
    kind: oneOf(['number']),
    integer: isBool,
    default: maybe(isNum),
    minimum: maybe(isNum),
    maximum: maybe(isNum),
  }),
  boolean: shape<Kind<'boolean'>>({ ...base, kind: oneOf(['boolean']), default: maybe(isBool) }),
  enum: shape<Kind<'enum'>>({ ...base, kind: oneOf(['enum']), options: listOf(isOption), default: maybe(isStr) }),
  multi: shape<Kind<'multi'>>({
    ...base,
    kind: oneOf(['multi']),
    options: listOf(isOption),
    default: maybe(listOf(isStr)),
    minItems: maybe(isNum),
    maxItems: maybe(isNum),
  }),
});

/** An ask from the host, or undefined (the webview drops it). */
export function isAskView(v: unknown): v is AskView {
  if (!isObj(v) || !isStr(v.id) || !isStr(v.server)) return false;
  if (v.kind === 'form') return isStr(v.message) && Array.isArray(v.fields) && v.fields.every(isField);
  if (v.kind === 'sampling')
    return (
      isStr(v.model) &&
      opt(v.app, isStr) &&
      isNum(v.maxTokens) &&
      isNum(v.limit) &&
      opt(v.systemPrompt, isStr) &&
      Array.isArray(v.messages) &&
      v.messages.every((m) => isObj(m) && (m.role === 'user' || m.role === 'assistant') && isStr(m.text))
    );
  return false;
}
