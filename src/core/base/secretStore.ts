/**
 * Where secrets live: VS Code's SecretStorage in the editor, a 0600 file for the CLI. Values are opaque strings;
 * nothing here is ever logged.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
