/** An entry name from a registry name: its last part without `server-`/`mcp-` and unsafe characters. */
export function suggestedName(registryName: string): string {
  const last = registryName.split('/').pop() ?? registryName;
  const name = last
    .replace(/^(mcp-server-|server-|mcp-)/, '')
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 40);
  return name || 'server';
}

/** `suggestedName`, with `-2`, `-3`... when the name is taken. */
export function suggestedEntryName(registryName: string, taken: ReadonlySet<string>): string {
  const base = suggestedName(registryName);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
