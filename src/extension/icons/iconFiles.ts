import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Logger } from '../../core/base/logger';
import { iconDataUri, loadIcon } from '../../core/mcp/features/iconBytes';
import type { SafeIcon } from '../../core/toolRegistry/toolTypes';

type Entry = { kind: 'loading' } | { kind: 'refused' } | { kind: 'ready'; file: vscode.Uri; dataUri: string };

const EXTENSION: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

/**
 * The servers' icons, as the UI shows them: each icon the core let through (allowed type and
 * origin) is loaded once, its bytes checked against its type (see loadIcon), and kept as a file
 * under the extension's storage (for tree items) and as a `data:` URI (for the chat's cards).
 * Lookups are synchronous: an icon not loaded yet starts loading, and onDidLoad fires when it is.
 */
export class IconFiles implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidLoad = this.emitter.event;

  constructor(
    private readonly folder: vscode.Uri,
    private readonly log: Logger,
  ) {}

  /** A file for a tree item's icon, once one of `icons` is loaded. */
  path(icons: readonly SafeIcon[] | undefined): vscode.Uri | undefined {
    const entry = this.first(icons);
    return entry?.file;
  }

  /** A `data:` URI for a card's `<img>`, once one of `icons` is loaded. */
  dataUri(icons: readonly SafeIcon[] | undefined): string | undefined {
    return this.first(icons)?.dataUri;
  }

  private first(icons: readonly SafeIcon[] | undefined): Extract<Entry, { kind: 'ready' }> | undefined {
    // An icon for either theme will do; one without a theme first.
    const ordered = [...(icons ?? [])].sort((a, b) => Number(a.theme !== undefined) - Number(b.theme !== undefined));
    for (const icon of ordered) {
      const entry = this.entries.get(icon.src);
      if (!entry) this.load(icon);
      else if (entry.kind === 'ready') return entry;
    }
    return undefined;
  }

  private load(icon: SafeIcon): void {
    this.entries.set(icon.src, { kind: 'loading' });
    void (async () => {
      const image = await loadIcon(icon);
      if (typeof image === 'string') {
        this.log.warn(`an icon (${icon.src.slice(0, 80)}) was refused: ${image}`);
        this.entries.set(icon.src, { kind: 'refused' });
        return;
      }
      const name = `${createHash('sha256').update(image.bytes).digest('hex').slice(0, 32)}.${EXTENSION[image.mimeType] ?? 'img'}`;
      const file = vscode.Uri.joinPath(this.folder, name);
      try {
        await mkdir(this.folder.fsPath, { recursive: true });
        await writeFile(file.fsPath, image.bytes);
      } catch (err) {
        this.log.warn(`an icon could not be kept: ${(err as Error).message}`);
        this.entries.set(icon.src, { kind: 'refused' });
        return;
      }
      this.entries.set(icon.src, { kind: 'ready', file, dataUri: iconDataUri(image) });
      this.emitter.fire();
    })();
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
