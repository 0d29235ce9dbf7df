import { parseTree } from 'jsonc-parser';

/**
 * Where the cursor goes in Try Tool's argument box: inside the first value, so typing fills it in
 * (a string's quotes stay; another value is selected to be replaced). `[start, end]` offsets.
 */
export function firstValueSelection(json: string): [number, number] {
  const tree = parseTree(json);
  const value = tree?.type === 'object' ? tree.children?.[0]?.children?.[1] : undefined;
  if (!value) {
    const inside = json.indexOf('{') + 1;
    return inside > 0 ? [inside, inside] : [json.length, json.length];
  }
  if (value.type === 'string') return [value.offset + 1, value.offset + value.length - 1];
  return [value.offset, value.offset + value.length];
}

export interface TryToolRun {
  tool: string;
  server?: string;
  args: Record<string, unknown>;
  durationMs: number;
  result: string;
  error: boolean;
  /** The tool's MCP App, which the chat shows and this document does not. */
  app?: { resourceUri: string };
}

/** Try Tool's result as a Markdown document: a header (tool, server, arguments, duration, outcome), then the result. */
export function resultDocument(run: TryToolRun): string {
  const header = [
    `# ${run.tool}${run.server ? ` · ${run.server}` : ''}`,
    '',
    `- **Arguments:** \`${JSON.stringify(run.args).replace(/`/g, '\\u0060')}\``,
    `- **Duration:** ${run.durationMs} ms`,
    `- **Outcome:** ${run.error ? 'error' : 'ok'}`,
    ...(run.app
      ? [
          `- **App:** \`${run.app.resourceUri.replace(/`/g, '%60')}\` (shown under the tool's card in the chat; here, its text)`,
        ]
      : []),
    '',
    '---',
    '',
  ];
  // A failure reads as its message, lines and quotes as the server wrote them, not as escaped JSON.
  const message = run.error ? errorText(run.result) : undefined;
  const body = message ?? run.result;
  const pretty = message === undefined ? prettyJson(run.result) : undefined;
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return [
    ...header,
    pretty !== undefined ? `${fence}json\n${pretty}\n${fence}` : `${fence}text\n${body}\n${fence}`,
    '',
  ].join('\n');
}

/** The message of a `{"error": "..."}` result, or undefined for any other text. */
function errorText(result: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(result);
    const error = parsed && typeof parsed === 'object' ? (parsed as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? error : undefined;
  } catch {
    return undefined;
  }
}

function prettyJson(text: string): string | undefined {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return undefined;
  }
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}
