// Text written by a server (a tool's description, an error, a resource's name) set into a Markdown
// tooltip as text: no link, image, HTML or theme icon of its own can come out of it.
//
// VS Code's MarkdownString.appendText escapes every punctuation mark, addresses included, and its
// Markdown makes a bare https address a link by itself, taking the escapes along: "(see
// https://example.com/docs)" showed "https://example.com/docs\)" and the link ended in a backslash.
// Here a web address becomes a link of its own ("[address](<address>)": its characters cannot
// leave the angle brackets: none is a bracket, angle bracket, backtick, quote or space), and
// everything else has every character Markdown could read escaped, "." and "@" too (so that no
// "www." or e-mail address is made a link that takes the escapes after it).

/** An http(s) address as Markdown's autolinker takes it: up to a space or a character outside URLs. */
const ADDRESS = /https?:\/\/[A-Za-z0-9-][A-Za-z0-9\-._~:/?#@!&'*+,;=%()]*/g;
/** Punctuation that ends a sentence rather than an address (a trailing ")" is kept only if opened inside). */
const TRAILING = /[.,;:!?'*~_]+$/;
/**
 * What is escaped: VS Code's theme icon syntax as a whole ("\$(name)" is how VS Code shows one as
 * text), else each character Markdown could read.
 */
const SPECIAL = /\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)|[\\`*_{}[\]<>#+\-!~|$&"=.@]/gi;

export function markdownText(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(ADDRESS)) {
    const address = trimAddress(m[0]);
    out += `${escapeText(text.slice(at, m.index))}[${escapeText(address)}](<${address}>)`;
    at = m.index + address.length;
  }
  return out + escapeText(text.slice(at));
}

function trimAddress(address: string): string {
  for (;;) {
    const trimmed = address.replace(TRAILING, '');
    const unbalanced = trimmed.endsWith(')') && count(trimmed, '(') < count(trimmed, ')');
    const next = unbalanced ? trimmed.slice(0, -1) : trimmed;
    if (next === address) return address;
    address = next;
  }
}

const count = (s: string, c: string) => s.split(c).length - 1;

function escapeText(text: string): string {
  return (
    text
      .replace(SPECIAL, '\\$&')
      .replace(/\r\n?/g, '\n')
      // A line's leading spaces would make a code block; a single newline would join the lines.
      .replace(/^[ \t]+/gm, (s) => '&nbsp;'.repeat(s.length))
      .replace(/\n/g, '\n\n')
  );
}

/** Text as a Markdown code span, whatever backticks it holds (the fence is one longer than its longest run). */
export function markdownCode(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || /^ .* $/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
