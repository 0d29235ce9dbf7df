// The chat webview in headless Chromium for the webview benchmarks: the real bundle and stylesheet.
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHAT_BODY } from '../src/shared/chatPage';

// The e2e suite's Chromium (its headless shell), which its set-up installs.
const { CHROMIUM } = require('../scripts/e2e-paths.cjs') as { CHROMIUM: string };

/** A browser, or undefined (said on the console) when there is no Chromium. */
export async function launchChromium(bench: string): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`${bench}: skipped, no Chromium at ${CHROMIUM} (node scripts/e2e-setup.mjs installs it)`);
    return undefined;
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/** A page with the chat's markup, stylesheet and bundle, the size of a sidebar. */
export async function openChatPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 500, height: 800 } });
  await page.setContent(
    `<!DOCTYPE html><html><head><style>${readFileSync('media/chat.css', 'utf8')}</style></head><body>${CHAT_BODY}</body></html>`,
  );
  // What the page sends its host goes to `window.__sent` when a benchmark sets one.
  await page.addScriptTag({
    content: 'window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent && window.__sent(m) });',
  });
  await page.addScriptTag({ content: readFileSync('dist/webview.js', 'utf8') });
  return page;
}
