/**
 * The checks for the prompt messages of the chat protocol (the `/` menu, its argument form and the
 * expanded prompt in the transcript), beside validate.ts. Every name, value and count is bounded:
 * a view asks only for what a user could type.
 */
import { isObj, isStr, type Obj } from './check';
import type { PromptChoice, PromptMessageView, WebviewMessage } from './protocol';

const optStr = (v: unknown): boolean => v === undefined || isStr(v);

/** A prompt's or an argument's name. */
const MAX_NAME = 300;
/** One argument's value. */
export const MAX_ARGUMENT_CHARS = 100_000;
const MAX_ARGUMENTS = 100;
const isName = (v: unknown): v is string => isStr(v) && v.length > 0 && v.length <= MAX_NAME;
/** Raster images only: an SVG could carry script. */
export const SHOWN_IMAGE = /^image\/(png|jpeg|gif|webp)$/;

/** Argument values by name: at most MAX_ARGUMENTS, each name and value bounded; undefined otherwise. */
function parseArguments(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  const entries = Object.entries(v);
  if (entries.length > MAX_ARGUMENTS) return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, value] of entries) {
    if (!isName(k) || !isStr(value) || value.length > MAX_ARGUMENT_CHARS) return undefined;
    out[k] = value;
  }
  return { ...out };
}

/** A `completePrompt` or `runPrompt` request from a view, or undefined. */
export function parsePromptRequest(m: Obj, requestId: number): WebviewMessage | undefined {
  if (!isName(m.prompt)) return undefined;
  if (m.type === 'runPrompt') {
    const args = parseArguments(m.arguments);
    return args ? { type: 'runPrompt', prompt: m.prompt, arguments: args, requestId } : undefined;
  }
  const context = parseArguments(m.context);
  if (!isName(m.argument) || !isStr(m.value) || m.value.length > MAX_ARGUMENT_CHARS || !context) return undefined;
  return { type: 'completePrompt', prompt: m.prompt, argument: m.argument, value: m.value, context, requestId };
}

export function isPromptChoice(p: unknown): p is PromptChoice {
  return (
    isObj(p) &&
    isStr(p.name) &&
    isStr(p.server) &&
    optStr(p.title) &&
    optStr(p.description) &&
    Array.isArray(p.arguments) &&
    p.arguments.every((a) => isObj(a) && isStr(a.name) && optStr(a.description) && typeof a.required === 'boolean')
  );
}

export function isPromptMessage(m: unknown): m is PromptMessageView {
  return (
    isObj(m) &&
    (m.role === 'user' || m.role === 'assistant') &&
    isStr(m.text) &&
    (m.images === undefined ||
      (Array.isArray(m.images) &&
        m.images.every((i) => isObj(i) && isStr(i.mimeType) && SHOWN_IMAGE.test(i.mimeType) && isStr(i.data))))
  );
}
