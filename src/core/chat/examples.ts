import type { ExamplePrompt } from '../../shared/protocol';

interface ToolLike {
  name: string;
  description: string;
  server?: string;
}

const MAX_PROMPT = 120;

/**
 * Example prompts built from the tools the model is offered: one per server first (in settings
 * order), then more from the same servers, up to `max`. The text comes from the tool's own name and
 * description: both are a server's words, so the view shows them as text, cut short and on one line.
 */
export function examplePrompts(tools: readonly ToolLike[], max = 4): ExamplePrompt[] {
  const byServer = new Map<string, ToolLike[]>();
  for (const t of tools) {
    const key = t.server ?? '';
    byServer.set(key, [...(byServer.get(key) ?? []), t]);
  }
  const picked: ToolLike[] = [];
  for (let round = 0; picked.length < max; round++) {
    const more = [...byServer.values()].map((list) => list[round]).filter((t): t is ToolLike => !!t);
    if (!more.length) break;
    picked.push(...more.slice(0, max - picked.length));
  }
  return picked.map((t) => ({ tool: t.name, ...(t.server ? { server: t.server } : {}), prompt: promptFor(t) }));
}

function promptFor(t: ToolLike): string {
  const name = oneLine(t.name).slice(0, 64);
  const sentence = firstSentence(oneLine(t.description));
  // "Use tool: what it does", whatever the description's grammar (a verb, a noun phrase).
  const text = sentence ? `Use ${name}: ${sentence}` : `Use ${name} to `;
  return text.length > MAX_PROMPT ? `${text.slice(0, MAX_PROMPT - 1)}…` : text;
}

/** Whitespace and control characters (a description's newlines, a zero-width trick) as single spaces. */
function oneLine(s: string): string {
  return s.replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ').trim();
}

function firstSentence(s: string): string {
  const end = s.search(/[.!?](\s|$)/);
  return (end >= 0 ? s.slice(0, end) : s).trim();
}
