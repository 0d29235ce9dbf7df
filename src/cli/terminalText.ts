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

/** Server text that may span lines, inside a line of ours: every further line is indented, so none reads as the CLI's own. */
export function indentLines(text: string, pad = '    '): string {
  return text.replace(/\r?\n/g, `\n${pad}`);
}

/** A tab-separated row of server-written fields: each stays on its row and in its column. */
export function row(...fields: string[]): string {
  return fields.map(terminalLine).join('\t');
}
