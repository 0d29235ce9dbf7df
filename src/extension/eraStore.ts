import type * as vscode from 'vscode';
import type { SecretStore } from '../core/base/secretStore';
import { EraMemory } from '../core/mcp/connection/eraMemory';

/**
 * The era memory of the editor, in its global state (not its secrets: the keys are digests and the
 * values say only "modern" or "legacy"), so a server's next start in any window goes straight to the
 * handshake it speaks.
 */
export function editorEraMemory(state: vscode.Memento): EraMemory {
  const store: SecretStore = {
    get: (key) => Promise.resolve(state.get<string>(`minagent.${key}`)),
    store: (key, value) => Promise.resolve(state.update(`minagent.${key}`, value)),
    delete: (key) => Promise.resolve(state.update(`minagent.${key}`, undefined)),
  };
  return new EraMemory(store);
}
