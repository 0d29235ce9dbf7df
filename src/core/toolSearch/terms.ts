import { stemmer } from 'stemmer';

/**
 * Words that carry no meaning for finding a tool, in a query or a description ("show me the last
 * commits" asks for commits). Kept short: a word a tool could be about (list, get, file) stays.
 */
const STOP = new Set(
  'a an and are as at be by can could do does for from how i in into is it its me my of on or please show that the their them then there these this to was what when where which who will with would you your'.split(
    ' ',
  ),
);

/**
 * Splits a tool's text or a query into words: snake_case, kebab-case and dotted names come apart,
 * and a camelCase word gives its parts as well as itself (`getFileContents` finds "file contents",
 * and "GitLab" still finds gitlab).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    out.push(word);
    const parts = word
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(' ');
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

/** One word as the index keeps it: lower case, stemmed (Porter), or null for a word that carries nothing. */
export function normalizeTerm(word: string): string | null {
  const w = word.toLowerCase();
  if (STOP.has(w)) return null;
  return stemmer(w);
}
