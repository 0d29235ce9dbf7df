// Driving the VS Code workbench in headless Chromium with playwright-core (Debian's Chromium, no
// browser download). Selectors are VS Code internals, pinned with the code-server version.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type BrowserContext,
  type ElementHandle,
  type Frame,
  type Locator,
  type Page,
} from 'playwright-core';
import { ROOT, waitFor } from '../helpers';

const { CHROMIUM } = require('../../scripts/e2e-paths.cjs') as { CHROMIUM: string };
export const ARTIFACTS = join(ROOT, '.test-artifacts');

/**
 * A named stage of an e2e test: a failure says which stage and leaves a screenshot of that moment
 * (`detail` adds what else the test knows).
 */
export function staged(prefix: string, workbench: () => Workbench | undefined, detail?: () => string) {
  return async (name: string, fn: () => Promise<void>): Promise<void> => {
    const t0 = Date.now();
    try {
      await fn();
      // Each stage's time, for finding where the suite's minutes go (the folder is made here: a file run
      // alone in a fresh checkout has none yet, and its first stage failed on the missing folder).
      mkdirSync(ARTIFACTS, { recursive: true });
      appendFileSync(join(ARTIFACTS, 'stage-times.tsv'), `${prefix}\t${name}\t${Date.now() - t0}\n`);
    } catch (err) {
      const shot = await workbench()?.screenshot(`${prefix}-${name}-failed`);
      throw new Error(
        `stage "${name}" failed (screenshot: ${shot}${detail ? `; ${detail()}` : ''}): ${(err as Error).message}`,
      );
    }
  };
}

/** Whether the element `selector` matches in the frame is drawn and wholly inside the frame's viewport. */
export function inSight(frame: Frame, selector: string): Promise<boolean> {
  return frame.evaluate(
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1; })()`,
  );
}

export class Workbench {
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    /** The browser's profile folder, removed on close. */
    private readonly profile: string,
  ) {}

  /**
   * `through`: the browser's only way out, an HTTP proxy that is asked for loopback addresses too (the browser of a
   * remote window, which cannot reach the extension host's loopback); `args`: more of Chromium's switches.
   */
  static async open(url: string, options: { through?: string; args?: string[] } = {}): Promise<Workbench> {
    const profile = mkdtempSync(join(tmpdir(), 'minagent-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      ...(options.through ? { proxy: { server: options.through, bypass: '<-loopback>' } } : {}),
      viewport: { width: 1400, height: 900 },
      // Uncompressed: code-server compresses each response on the fly, 1.5 of the ~6 CPU-seconds it spent
      // per workbench load (two alternating runs each); on loopback the bytes cost nothing.
      extraHTTPHeaders: { 'Accept-Encoding': 'identity' },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--force-prefers-reduced-motion',
        ...(options.args ?? []),
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    // Bounds, not expectations: on a loaded 2-core machine code-server can take a minute to serve
    // the workbench. Every wait below this is for an event, bounded by these.
    page.setDefaultTimeout(60_000);
    page.setDefaultNavigationTimeout(120_000);
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    return new Workbench(context, page, profile);
  }

  /** Saves a screenshot under .test-artifacts/ (kept by the suite on failure). */
  async screenshot(name: string): Promise<string> {
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = join(ARTIFACTS, `${name.replace(/[^\w.-]+/g, '_')}.png`);
    await this.page.screenshot({ path: file }).catch(() => undefined);
    return file;
  }

  /**
   * Pastes `text` into `target` as a user does (the clipboard, then Ctrl+V): Playwright's fill types a
   * long multi-line text through the editing commands one line at a time, which takes seconds for a
   * log a user pastes at once.
   */
  async paste(target: Locator, text: string): Promise<void> {
    await this.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(this.page.url()).origin,
    });
    await this.page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await target.focus();
    await target.press('ControlOrMeta+V');
  }

  async command(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`>${title}`);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
    // The row whose label is the title (an ellipsis after it allowed), not the first that holds it: "Add Server"
    // is in "Add Server from Registry…" too. Clicked where there is one; else the first row, as before.
    const label = new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}…?\\s*$`);
    const exact = this.page
      .locator('.quick-input-list .monaco-list-row', { has: this.page.locator('.label-name', { hasText: label }) })
      .first();
    if (await exact.isVisible().catch(() => false)) await exact.click();
    else await this.page.keyboard.press('Enter');
  }

  /**
   * Developer: Reload Window, done once the new page is there: under load the old page stays up for
   * seconds after the command (VS Code first ends the extension host), and a wait that matched it
   * would act on a page about to go.
   */
  async reload(): Promise<void> {
    // The page's load event: a same-document navigation (VS Code rewrites its URL) fires framenavigated too.
    const loaded = this.page.waitForEvent('load', { timeout: 180_000 });
    await this.command('Developer: Reload Window');
    await loaded.catch((err: Error) => {
      throw new Error(`the window did not reload within 180 s: ${err.message}`);
    });
    await this.page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
  }

  async openMinAgent(): Promise<void> {
    // With one view the container shows "MINAGENT: ..." as its title instead of a pane header.
    const title = this.page.locator('.sidebar .title-label', { hasText: /MinAgent/i }).first();
    // Clicking the icon of the container already shown would hide it: VS Code marks the shown one's
    // item "checked". The icon may be busy with a progress badge, which playwright does not count as
    // stable, so the click is forced once the item is there.
    const item = this.page.locator('.activitybar .action-item:has([aria-label^="MinAgent"])').first();
    await item.waitFor({ timeout: 60_000 });
    // Right after a reload VS Code may still be restoring the sidebar: a click then can land as the
    // restore shows it, and hide it again. So: click while the item is not checked, until the title shows.
    for (const until = Date.now() + 60_000; ; ) {
      if (!/\bchecked\b/.test((await item.getAttribute('class')) ?? ''))
        await item.locator('[aria-label^="MinAgent"]').first().click({ force: true });
      try {
        await title.waitFor({ timeout: 5_000 });
        return;
      } catch (err) {
        if (Date.now() > until) throw err;
      }
    }
  }

  /** The Tools tree's rows as text (label and description), top to bottom. */
  async treeRows(): Promise<string[]> {
    // A string, not a function: the test transpiler would add helpers the page does not have.
    return this.page.evaluate<string[]>(`Array.from(document.querySelectorAll('.pane-body .monaco-list-row')).map(r =>
      ['.label-name', '.label-description']
        .map(sel => ((r.querySelector(sel) || {}).innerText || '').replace(/\\s+/g, ' ').trim())
        .filter(Boolean).join(' '))`);
  }

  /**
   * Rests the pointer on a tree row until its hover shows `showing`, and returns the hover with its text.
   * VS Code shows it once the pointer rests on the row's label (its icon is part of it; a long name would be
   * scrolled sideways in its clipped box if the pointer were moved onto it), after a delay; on a loaded
   * machine the pointer's arrival can be missed, and a tree that changes meanwhile (another server's state)
   * closes the hover before it is read: either way it leaves and comes back (3 times at most).
   */
  async hoverRow(label: string, showing: string): Promise<{ hover: Locator; text: string }> {
    const hover = this.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: showing }).first();
    for (let attempt = 1; ; attempt++) {
      await this.row(label).hover();
      await this.row(label).locator('.custom-view-tree-node-item-icon').hover();
      try {
        await hover.waitFor({ timeout: 15_000 });
        return { hover, text: await hover.innerText({ timeout: 5_000 }) };
      } catch (err) {
        if (attempt === 3) throw err;
        await this.page.mouse.move(0, 0);
      }
    }
  }

  /** The Tools tree's top-level rows (the servers) whose text the sidebar cuts with an ellipsis. */
  async cutServerRows(): Promise<string[]> {
    return this.page.evaluate<
      string[]
    >(`Array.from(document.querySelectorAll('.pane-body .monaco-list-row[aria-level="1"]'))
      .map(r => r.querySelector('.monaco-icon-label-container'))
      .filter(c => c && c.scrollWidth > c.clientWidth + 1)
      .map(c => c.innerText.replace(/\\s+/g, ' ').trim())`);
  }

  async waitForRows(what: string, predicate: (rows: string[]) => boolean, ms = 60_000): Promise<string[]> {
    const until = Date.now() + ms;
    let rows: string[] = [];
    while (Date.now() < until) {
      rows = await this.treeRows();
      if (predicate(rows)) return rows;
      await this.page.waitForTimeout(250);
    }
    throw new Error(`timed out waiting for ${what}; the tree shows:\n  ${rows.join('\n  ')}`);
  }

  row(label: string) {
    return this.page
      .locator('.pane-body .monaco-list-row', {
        has: this.page.locator('.label-name', {
          hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        }),
      })
      .first();
  }

  /**
   * A hover the pointer left showing (a row's tooltip, after a click on another row's action) covers the rows
   * below it and takes a click meant for them: the pointer moves away until it is gone.
   */
  private async pointerAway(): Promise<void> {
    await this.page.mouse.move(0, 0);
    await this.page
      .locator('.monaco-hover, .workbench-hover')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
  }

  /**
   * Opens a tree row's children as a user does: a click on the row, then the Right arrow, the row left
   * with the keyboard's focus. The click is made again until the row has the tree's focus (a hover left
   * over it took a click, and a row that moved as the tree filled was missed, in runs of the suite).
   */
  async expandRow(label: string): Promise<void> {
    const row = await this.focusRow(label);
    if ((await row.getAttribute('aria-expanded')) !== 'true') await this.page.keyboard.press('ArrowRight');
  }

  /** Closes a tree row's children as a user does: a click on the row, then the Left arrow. */
  async collapseRow(label: string): Promise<void> {
    const row = await this.focusRow(label);
    if ((await row.getAttribute('aria-expanded')) === 'true') await this.page.keyboard.press('ArrowLeft');
  }

  private async focusRow(label: string): Promise<Locator> {
    const row = this.row(label);
    await waitFor(
      `the row "${label}" focused by a click`,
      async () => {
        await this.pointerAway();
        await row.click();
        return /\bfocused\b/.test((await row.getAttribute('class')) ?? '');
      },
      30_000,
    );
    return row;
  }

  /**
   * Runs `item` from the context menu of the row `rowLabel`. `opened`: what the row's own click opens (a
   * document), waited for before the menu opens, so it cannot take focus and close the menu under the click:
   * on a loaded CI machine the click landed as the menu closed, and the item never ran.
   */
  async contextMenu(rowLabel: string, item: string, opened?: () => Promise<unknown>): Promise<void> {
    const row = this.row(rowLabel);
    await this.pointerAway();
    // Take focus back from any webview first: a menu opened while an iframe has focus can miss clicks.
    await row.click();
    await opened?.();
    const menuItem = this.page
      .locator('.context-view .action-item, .monaco-menu .action-item', { hasText: item })
      .first();
    // A row with a command opens something on that click (a document): when that takes focus after
    // the menu opened (even while the pointer moves onto the item), the menu closes. Opened again,
    // and the item hovered and clicked, until that holds (bounded like every wait here).
    for (const until = Date.now() + 90_000; ; ) {
      await row.click({ button: 'right' });
      try {
        await menuItem.waitFor({ timeout: 10_000 });
        await menuItem.hover({ timeout: 5_000 });
        await menuItem.click({ timeout: 5_000 });
        break;
      } catch (err) {
        if (Date.now() > until)
          throw new Error(
            `the context menu of "${rowLabel}" never let "${item}" be clicked: ${(err as Error).message}`,
          );
        await this.page.keyboard.press('Escape');
      }
    }
    // A menu still open after the click is closed with Enter, but only when it did not close by itself
    // and nothing the item opened (a quick input) would take that Enter: a fresh run's Enter accepted
    // Try Tool's prefilled arguments while the menu faded out.
    const closed = await menuItem.waitFor({ state: 'hidden', timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    if (
      !closed &&
      !(await this.page
        .locator('.quick-input-widget')
        .isVisible()
        .catch(() => false))
    )
      await this.page.keyboard.press('Enter');
  }

  /** The text of the active editor, with soft wraps and runs of spaces as single spaces. */
  async editorText(): Promise<string> {
    const text = await this.page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
    return text.replace(/\s+/g, ' ');
  }

  /**
   * A webview's document, two frames down: the sidebar view's, or with `panel` the editor panel's.
   * VS Code replaces a webview's frames while it restores or reloads one: a frame that goes away
   * between being found and being entered is looked up again, until the deadline.
   */
  async webview({ panel = false } = {}): Promise<Frame> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        // The shown one: after a reload VS Code can hold another, hidden, frame of the same kind before it.
        const shown = this.page.locator('iframe.webview.ready').filter({ visible: true });
        await shown.first().waitFor({ timeout: Math.max(1, deadline - Date.now()) });
        const outer = await this.frameOfKind(await shown.elementHandles(), panel);
        const outerFrame = await outer?.contentFrame();
        const inner = await outerFrame?.waitForSelector('#active-frame', {
          timeout: Math.max(1, deadline - Date.now()),
        });
        const frame = await inner?.contentFrame();
        if (frame && !frame.isDetached()) return frame;
      } catch (err) {
        if (!/not attached|detached|Target closed|has been closed/i.test(String(err)) || Date.now() > deadline) {
          // What frames there were, for the next reader of a failure.
          const frames = await this.page
            .evaluate(
              `JSON.stringify(Array.from(document.querySelectorAll('iframe')).map(f => [f.className, (/purpose=[^&]*/.exec(f.getAttribute('src') || '') || [''])[0], f.getBoundingClientRect().width]))`,
            )
            .catch(() => '?');
          throw new Error(`${(err as Error).message} (iframes: ${frames}; url: ${this.page.url()})`);
        }
      }
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for the ${panel ? 'editor panel' : 'sidebar'} webview`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * The sidebar view's frame (or, with `panel`, an editor panel's) among the shown webview frames. A
   * view's frame says `purpose=webviewView` in its address, except one VS Code restored after a
   * reload, which says no purpose: that one is the view's when it lies over the sidebar.
   */
  private async frameOfKind(frames: ElementHandle[], panel: boolean): Promise<ElementHandle | undefined> {
    const sidebar = await this.page
      .locator('.part.sidebar')
      .first()
      .boundingBox()
      .catch(() => null);
    for (const f of frames) {
      const src = (await f.getAttribute('src')) ?? '';
      const box = await f.boundingBox();
      const overSidebar = !!(
        box &&
        sidebar &&
        box.x >= sidebar.x - 1 &&
        box.x + box.width <= sidebar.x + sidebar.width + 1
      );
      const isView = src.includes('purpose=webviewView') || (!src.includes('purpose=') && overSidebar);
      if (isView !== panel) return f;
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 3 });
  }
}
