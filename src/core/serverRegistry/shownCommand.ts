import { visibleLine } from '../../shared/visibleText';

/**
 * A command line as a confirmation shows it (nothing here runs in a shell): each word as a POSIX shell
 * would need it quoted, so a space cannot make one word read as two; a word with a newline, a control
 * or a direction character in ANSI-C quoting (`$'a\nb'`), each such character as its escape, so the
 * line reads as what runs and a shell would read it back as the same words.
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./${}-]+$/.test(word)) return word;
  if (visibleLine(word) === word) return `'${word.replace(/'/g, `'\\''`)}'`;
  return `$'${visibleLine(word.replace(/[\\']/g, '\\$&'))}'`;
}

/**
 * `NAME=value ... command args...`, every value and word as `shellWord` shows it but the `placeholders` (a preview's
 * `<label>`).
 */
export function shownCommand(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  placeholders: ReadonlySet<string> = new Set(),
): string {
  const word = (w: string) => (placeholders.has(w) ? w : shellWord(w));
  return [
    ...Object.entries(env).map(([name, value]) => `${name}=${word(value)}`),
    ...[command, ...args].map(word),
  ].join(' ');
}
