/**
 * Text shown as what it is. Control characters move the cursor, erase or retitle a terminal, and the
 * Unicode format characters reorder or hide what is read (a bidi override makes `evil.sh` read as
 * `hs.live`): each is shown as its escape (`\r`, `\u001b`, `\u202e`), in JSON's spelling, so JSON
 * output stays valid JSON that decodes to the same text.
 */

// C0 controls but tab and newline (a text's own layout), DEL, C1 controls, and the Unicode format
// characters that change how text is ordered or hide it.
const UNSAFE_MULTILINE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;
// On one line (a name in a question, a field's label, a value in a prompt), tab and newline too.
const UNSAFE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

const SHORT: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

function escapeChar(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Lines stay lines; every other control or bidi character shows as its escape. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE_MULTILINE, escapeChar);
}

/** One line: newlines and tabs are escaped as well. */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE_LINE, escapeChar);
}
