import type { ExamplePrompt } from '../../shared/protocol';

interface ToolLike {
  name: string;
  description: string;
  title?: string;
  server?: string;
}

const MAX_DESCRIPTION = 100;

/**
 * Example prompts built from the tools the model is offered: one per server first (in settings
 * order), then more from the same servers, up to `max`. The prompt is the user's words for the user
 * to finish ("Use echo to "); what the tool does is the server's words (its description's first
 * sentence, else its title), shown beside it and never glued into the prompt. Both are a server's
 * text, so the view shows them as text, on one line each, the description shortened at a word.
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
  return picked.map((t) => {
    const description = shortened(firstSentence(oneLine(t.description)) || oneLine(t.title ?? ''));
    return {
      tool: t.name,
      ...(t.server ? { server: t.server } : {}),
      prompt: `Use ${oneLine(t.name).slice(0, 64)} to `,
      ...(description ? { description } : {}),
    };
  });
}

/** At most MAX_DESCRIPTION characters, cut at a word (or mid-word only when one word is that long). */
function shortened(s: string): string {
  if (s.length <= MAX_DESCRIPTION) return s;
  const head = s.slice(0, MAX_DESCRIPTION - 1);
  const space = head.lastIndexOf(' ');
  return `${space > MAX_DESCRIPTION / 2 ? head.slice(0, space) : head}…`;
}

/** Whitespace and control characters (a description's newlines, a zero-width trick) as single spaces. */
function oneLine(s: string): string {
  return s.replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ').trim();
}

function firstSentence(s: string): string {
  const end = s.search(/[.!?](\s|$)/);
  return (end >= 0 ? s.slice(0, end) : s).trim();
}
