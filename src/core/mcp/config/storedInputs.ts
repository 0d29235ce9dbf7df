import type { SecretStore } from '../../base/secretStore';
import { inputBinding } from './inputBinding';

/** The `${input:ID}` ids an entry uses, once each. */
export function inputReferences(value: unknown): string[] {
  const ids = new Set<string>();
  const text = JSON.stringify(value) ?? '';
  for (const m of text.matchAll(/\$\{input:([^}]+)\}/g)) ids.add(m[1]!);
  return [...ids];
}

/**
 * Where a value given for `${input:ID}` of one server entry is kept in a secret store: under the
 * settings file it was given for (`origin`), the server's name and what the entry runs or reaches
 * (`inputBinding`: a changed command or URL is another key, so the value never follows it there; a
 * version-only change keeps it). Never the value itself.
 */
export function storedInputKey(origin: string, server: string, entry: unknown, id: string): string {
  return `minagent.input/${inputBinding(entry, origin).key}/${encodeURIComponent(server)}/${encodeURIComponent(id)}`;
}

/**
 * The stored `${input:}` values of every entry of `servers` (a settings file's `minagent.servers`),
 * by server and id: what `VariableContext.input` reads. An id without a stored value stays unresolved
 * (the config reports it, naming the server).
 */
export async function storedInputs(
  servers: unknown,
  origin: string,
  store: SecretStore,
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return out;
  for (const [server, entry] of Object.entries(servers as Record<string, unknown>)) {
    for (const id of inputReferences(entry)) {
      const value = await store.get(storedInputKey(origin, server, entry, id));
      if (value === undefined) continue;
      const values = out.get(server) ?? new Map<string, string>();
      values.set(id, value);
      out.set(server, values);
    }
  }
  return out;
}
