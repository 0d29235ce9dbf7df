import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SecretStore } from '../base/secretStore';

/** The CLI's own folder: `$XDG_CONFIG_HOME/minagent`, else `~/.config/minagent`. */
export function cliConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'minagent');
}

/** The CLI's token file: `oauth.json` in its folder. */
export function defaultAuthFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(cliConfigDir(env), 'oauth.json');
}

/**
 * Secrets in one JSON file that only the user can read (0600, its folder 0700). Writes go to a
 * temporary file first and are renamed into place, so a crash never leaves half a file.
 */
export class FileSecretStore implements SecretStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async get(key: string): Promise<string | undefined> {
    await this.queue;
    return (await this.readAll())[key];
  }

  store(key: string, value: string): Promise<void> {
    return this.change((all) => {
      all[key] = value;
    });
  }

  delete(key: string): Promise<void> {
    return this.change((all) => {
      delete all[key];
    });
  }

  private change(edit: (all: Record<string, string>) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const all = await this.readAll();
      edit(all);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const tmp = `${this.path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(all), { mode: 0o600 });
      await chmod(tmp, 0o600);
      await rename(tmp, this.path);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readAll(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`cannot read the token file ${this.path}: ${(err as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      // Never echo the content: it holds tokens.
      throw new Error(`the token file ${this.path} is not valid JSON; delete it to sign in again`);
    }
  }
}
