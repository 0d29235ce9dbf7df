/**
 * Text and URLs a server sends in its requests to the client are written by whoever controls the
 * server. They are only ever shown as plain text (never HTML), bounded in length, and a URL is
 * accepted only when it is http(s).
 */

/** Control characters (but tab and newline) and bidirectional overrides, which can disguise text. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Server text with its unsafe characters dropped, whole (for text that is shown and then sent as shown). */
export function stripUnsafe(value: unknown): string {
  return typeof value === 'string' ? value.replace(UNSAFE, '') : '';
}

/** Server text as the user may see it: unsafe characters dropped, at most `max` characters (cut with a note). */
export function plainText(value: unknown, max: number): string {
  const text = stripUnsafe(value);
  return text.length > max ? `${text.slice(0, max)}… (cut: ${text.length.toLocaleString('en')} characters)` : text;
}

export interface SafeUrl {
  /** The URL in full, as it will be opened. */
  href: string;
  /** Its host (with port), shown beside it so a look-alike path cannot hide where it goes. */
  host: string;
}

/** The longest URL a server may ask the user to open. */
export const MAX_URL_CHARS = 4096;

/** An http(s) URL without credentials, or the reason it is refused. */
export function safeUrl(value: unknown): SafeUrl | { refused: string } {
  if (typeof value !== 'string' || !value) return { refused: 'the URL is missing' };
  if (value.length > MAX_URL_CHARS)
    return { refused: `the URL is ${value.length} characters long (at most ${MAX_URL_CHARS})` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { refused: 'the URL is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { refused: `only http and https URLs are opened, not "${url.protocol}"` };
  if (url.username || url.password) return { refused: 'the URL carries a user name or password' };
  return { href: url.href, host: url.host };
}
