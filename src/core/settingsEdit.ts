import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parseTree, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { indentOf, insertProperty, removeProperty, valueText, type Layout } from './jsoncProperty';
import { parseSettingsText } from './base/jsonc';

/**
 * Sets (or, with `undefined`, removes) one `minagent.servers` entry of a settings file (JSONC),
 * keeping its comments and the rest of its text; a missing file is created. Where the file nests
 * its settings (`"minagent": { "servers": ... }`) the entry goes there, else under `"minagent.servers"`.
 * The file is written whole through a temporary file, so a crash leaves the old one.
 */
export function writeServerEntry(path: string, name: string, entry: Record<string, unknown> | undefined): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`cannot read settings file ${path}: ${(err as Error).message}`);
    text = '{}\n';
  }
  const edited = editServerEntry(text, name, entry, { path });
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, edited);
  renameSync(tmp, path);
}

/**
 * The text of a settings file (JSONC) with one server entry set or removed, and nothing else changed:
 * the user's comments, order, indentation and line ends stay (a whole-object rewrite, as VS Code's
 * configuration update does, reformats every entry). A new entry is indented as the file is. Removing
 * the last entry removes the then empty `minagent.servers` too (the same as none), so adding then
 * removing a server leaves the file as it was. `under` is where the settings are in the file:
 * `["settings"]` in a `.code-workspace`. Throws, naming `path`, on text that is not JSONC.
 */
export function editServerEntry(
  text: string,
  name: string,
  entry: Record<string, unknown> | undefined,
  { path = 'settings', under = [] }: { path?: string; under?: JSONPath } = {},
): string {
  parseSettingsText(text, path);
  const format = layoutOf(text);
  const tree = parseTree(text)!;
  const settings = findNodeAtLocation(tree, under);
  const nested = settings && findNodeAtLocation(settings, ['minagent', 'servers']);
  const serversPath: JSONPath = nested ? [...under, 'minagent', 'servers'] : [...under, 'minagent.servers'];
  const servers = findNodeAtLocation(tree, serversPath);
  const existing = servers?.type === 'object' ? findNodeAtLocation(servers, [name]) : undefined;
  // Where the layout is not one property a line, jsonc-parser's edit (which may lay out its neighbours anew).
  const general = () => modify(text, [...serversPath, name], entry, { formattingOptions: formatting(format) });
  if (entry === undefined) {
    if (!existing?.parent) return text;
    const edited = applyEdits(text, removeProperty(text, servers!, existing.parent) ?? general());
    return withoutEmptyServers(edited, serversPath, format);
  }
  if (existing)
    return applyEdits(text, [
      {
        offset: existing.offset,
        length: existing.length,
        content: valueText(entry, indentOf(text, existing.parent!.offset), format),
      },
    ]);
  const edits =
    servers?.type === 'object'
      ? insertProperty(text, servers, name, entry, format)
      : !servers && settings?.type === 'object'
        ? insertProperty(text, settings, String(serversPath.at(-1)), { [name]: entry }, format)
        : undefined;
  return applyEdits(text, edits ?? general());
}

/**
 * `minagent.servers` left with nothing in it, not even a comment of the user's, goes (an empty object is the default).
 */
function withoutEmptyServers(text: string, serversPath: JSONPath, format: Layout): string {
  const servers = findNodeAtLocation(parseTree(text)!, serversPath);
  if (
    servers?.type !== 'object' ||
    servers.children?.length ||
    text.slice(servers.offset + 1, servers.offset + servers.length - 1).trim()
  )
    return text;
  return applyEdits(
    text,
    removeProperty(text, servers.parent!.parent!, servers.parent!) ??
      modify(text, serversPath, undefined, { formattingOptions: formatting(format) }),
  );
}

/** How the file indents (the first indented property's indent) and ends its lines. */
function layoutOf(text: string): Layout {
  return {
    unit: /^([ \t]+)"/m.exec(text)?.[1]?.replace(/^\t.*/, '\t') ?? '  ',
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** The same layout for jsonc-parser's own edits. */
function formatting({ unit, eol }: Layout): FormattingOptions {
  return unit === '\t' ? { insertSpaces: false, tabSize: 4, eol } : { insertSpaces: true, tabSize: unit.length, eol };
}
