import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { parseSettingsText } from './settingsFile';

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
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read settings file ${path}: ${(err as Error).message}`);
    text = '{}\n';
  }
  const settings = parseSettingsText(text, path);
  const nested = settings.minagent && typeof settings.minagent === 'object' && 'servers' in (settings.minagent as object);
  const where: JSONPath = nested ? ['minagent', 'servers', name] : ['minagent.servers', name];
  const edits = modify(text, where, entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, applyEdits(text, edits));
  renameSync(tmp, path);
}
