import { visibleLine, visibleText } from '../shared/visibleText';

/**
 * What reaches the terminal. Servers, models and files write names, descriptions, results and
 * errors; a terminal obeys control characters in them: `\r` and CSI erase what was written, OSC 52
 * writes the clipboard, OSC 0 sets the window title, bidi overrides reorder what is read. Every
 * such character is shown as its escape (`\r`, `\u001b`, `\u202e`), so the text reads as what it is.
 *
 * The escapes are JSON's, so `--json` output stays valid JSON that decodes to the same text.
 */

/** Text for the terminal: lines stay lines, every other control or bidi character shows as its escape. */
export const terminalText = visibleText;

/** One line of text for the terminal: newlines and tabs are escaped as well. */
export const terminalLine = visibleLine;

let beforeWrite: (() => void) | undefined;
/** What runs before the CLI writes a line of its own: the progress line erases itself (src/cli/progressLine.ts). */
export function onBeforeWrite(fn: (() => void) | undefined): void {
  beforeWrite = fn;
}

/** A writer for a stream that only ever passes terminal text. */
export function safeWriter(stream: NodeJS.WritableStream): (text: string) => void {
  return (text) => {
    beforeWrite?.();
    stream.write(terminalText(text));
  };
}

/** The CLI's two streams: everything the CLI prints goes through one of these. */
export const stdout = safeWriter(process.stdout);
export const stderr = safeWriter(process.stderr);

/**
 * Server text that may span lines, inside a line of ours: every further line is indented, so none reads as the CLI's
 * own.
 */
export function indentLines(text: string, pad = '    '): string {
  return text.replace(/\r?\n/g, `\n${pad}`);
}

/** A tab-separated row of server-written fields: each stays on its row and in its column. */
export function row(...fields: string[]): string {
  return fields.map(terminalLine).join('\t');
}

/**
 * Rows of server-written fields, as lines. For a terminal, each field but a row's last is padded to
 * the widest of its column, two spaces apart, the widths those of the text as shown (its escapes);
 * for a pipe, tab-separated as `row` makes them, which scripts read.
 */
export function table(rows: readonly string[][], aligned: boolean): string[] {
  if (!aligned) return rows.map((fields) => row(...fields));
  const shown = rows.map((fields) => fields.map(terminalLine));
  const widths: number[] = [];
  for (const fields of shown)
    fields.slice(0, -1).forEach((f, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleWidth(f))));
  return shown.map((fields) =>
    fields
      .map((f, i) => (i < fields.length - 1 ? f + ' '.repeat(widths[i]! - visibleWidth(f)) : f))
      .join('  ')
      .trimEnd(),
  );
}

// Combining marks and format characters take no column; East Asian wide and fullwidth characters and
// emoji shown as emoji take two (as a terminal's wcwidth has them, near enough for a table).
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{1b000}-\u{1b2ff}\u{20000}-\u{3fffd}]/u;

/** The columns `text` (one line, as shown) takes on a terminal. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}
