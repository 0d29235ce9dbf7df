import type { Logger } from './logger';

/** What a secret becomes in any text MinAgent shows, logs, stores or sends to a model. */
export const REDACTED = '[redacted]';

/**
 * Substituted values shorter than this are not redacted: a short value such as `root` or `8080`
 * would corrupt unrelated text wherever it happens to occur.
 */
export const MIN_SECRET_CHARS = 8;

/**
 * Replaces a server's secrets wherever they appear in text. One per server, built from its
 * entry, and applied at the edges: every message the server sends (redactedTransport), failure
 * messages, log lines, the server's state and stderr.
 */
export class Redactor {
  /** [text, replacement], longest text first so a secret inside a longer one cannot split it. */
  private pairs: Array<[string, string]> = [];

  /** A secret value (a substituted `${input:}` or `${env:}` value, an env-file value, a header value). */
  addSecret(value: string): void {
    if (value.length < MIN_SECRET_CHARS) return;
    this.add(value, REDACTED);
  }

  /** A URL: its credentials (`user:pass@`) and its query string are secret; the rest is not. */
  addUrl(url: string): void {
    const safe = redactUrl(url);
    if (safe === url) return;
    this.add(url, safe);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    this.add(parsed.href, redactUrl(parsed.href));
    if (parsed.username || parsed.password)
      this.add(`${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@`, `${REDACTED}@`);
    if (parsed.search.length > 1) this.add(parsed.search, `?${REDACTED}`);
    for (const part of [parsed.password, decodeURIComponent(parsed.password), ...[...parsed.searchParams.values()]])
      this.addSecret(part);
  }

  /** The text with every known secret replaced. */
  redact(text: string): string {
    let out = text;
    for (const [secret, replacement] of this.pairs) if (out.includes(secret)) out = out.split(secret).join(replacement);
    return out;
  }

  /**
   * A parsed JSON value with every known secret replaced in its strings, object keys included, however
   * deep (no recursion, so a hostile nesting depth cannot overflow the stack). Objects and arrays are
   * changed in place; the value (or, for a string, its replacement) is returned.
   */
  redactJson(value: unknown): unknown {
    if (this.pairs.length === 0) return value;
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    const pending: object[] = [value];
    for (let node = pending.pop(); node; node = pending.pop()) {
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const v: unknown = node[i];
          if (typeof v === 'string') node[i] = this.redact(v);
          else if (typeof v === 'object' && v !== null) pending.push(v);
        }
        continue;
      }
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const v = record[key];
        if (typeof v === 'string') record[key] = this.redact(v);
        else if (typeof v === 'object' && v !== null) pending.push(v);
        const safe = this.redact(key);
        if (safe !== key) {
          Object.defineProperty(record, safe, {
            value: record[key],
            writable: true,
            enumerable: true,
            configurable: true,
          });
          delete record[key];
        }
      }
    }
    return value;
  }

  get empty(): boolean {
    return this.pairs.length === 0;
  }

  private add(text: string, replacement: string): void {
    // The JSON-escaped form too: results and errors often carry values inside JSON strings.
    const escaped = JSON.stringify(text).slice(1, -1);
    for (const t of escaped === text ? [text] : [text, escaped]) {
      if (!t || this.pairs.some(([s]) => s === t)) continue;
      this.pairs.push([t, replacement]);
    }
    this.pairs.sort((a, b) => b[0].length - a[0].length);
  }
}

/** A URL for display: `user:pass@` and the query string are replaced; a text that is not a URL is returned as it is. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!u.username && !u.password && u.search.length <= 1) return url;
  const auth = u.username || u.password ? `${REDACTED}@` : '';
  const query = u.search.length > 1 ? `?${REDACTED}` : '';
  return `${u.protocol}//${auth}${u.host}${u.pathname}${query}${u.hash}`;
}

/** A logger that redacts every line before it reaches `base`. */
export function redactingLogger(base: Logger, redactor: Redactor): Logger {
  return {
    trace: (m) => base.trace(redactor.redact(m)),
    info: (m) => base.info(redactor.redact(m)),
    warn: (m) => base.warn(redactor.redact(m)),
    error: (m) => base.error(redactor.redact(m)),
  };
}
