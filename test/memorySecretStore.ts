import type { SecretStore } from '../src/core/base/secretStore';

/** Secrets in memory, for tests: `values` shows what was stored. */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}
