/** Splits a command line as a shell would for plain words and quotes (nothing is ever run through a shell). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return words;
}

/** A default server name from what the user typed: the package or script name, or the URL's host. */
export function suggestName(source: string): string {
  let base = source;
  try {
    const url = new URL(source);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A local or numeric address says nothing ("127"): the path's last word, else "local" and the port.
    if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':')) {
      const word = url.pathname
        .split('/')
        .filter((p) => p && p !== 'mcp' && p !== 'sse')
        .pop();
      base = word ?? `local-${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    } else base = host.split('.').filter((p) => p !== 'www' && p !== 'mcp')[0] ?? source;
  } catch {
    const words = splitCommandLine(source).filter((w) => !w.startsWith('-'));
    base = (words[words.length - 1] ?? '').split(/[\\/]/).pop() ?? '';
  }
  return (
    base
      .replace(/^server-|-server$|\.(m?js|py|ts)$/g, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'server'
  );
}
