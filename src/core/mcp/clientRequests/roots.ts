import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import { Emitter, type Event } from '../../base/event';

/** The folders servers may see as the client's roots, and when they change. */
export interface RootsSource {
  roots(): Root[];
  readonly onDidChange: Event<void>;
}

/** Roots from folder paths (the CLI's cwd or `--root`, the editor's workspace folders); `set` replaces them. */
export class FolderRoots implements RootsSource {
  private current: Root[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(folders: ReadonlyArray<string | { path: string; name?: string }> = []) {
    this.current = toRoots(folders);
  }

  roots(): Root[] {
    return this.current.map((r) => ({ ...r }));
  }

  set(folders: ReadonlyArray<string | { path: string; name?: string }>): void {
    const next = toRoots(folders);
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function toRoots(folders: ReadonlyArray<string | { path: string; name?: string }>): Root[] {
  return folders.map((f) => {
    const path = typeof f === 'string' ? f : f.path;
    const name = (typeof f === 'string' ? undefined : f.name) ?? basename(path);
    return { uri: pathToFileURL(path).href, ...(name ? { name } : {}) };
  });
}
