// MCP Apps in the chat webview, in headless Chromium with the real bundle and stylesheet, the app served
// by the real AppServer under its real policy (the official vanilla-JS example's document, with a line
// that reports its second animation frame to its parent):
// - first paint: from the tool's card arriving (done, with its result) to the app's first frames inside
//   the chat (the card renders, the page asks for the app, the host answers at once with its address),
//   against the same document in a plain sandboxed iframe appended to the same page;
// - scrolling: frame times while the transcript scrolls through five cards with live apps, against the
//   same five cards without apps.
// Each round is a fresh page and alternates which of the two goes first; ratios within each round.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { appCsp } from '../src/core/apps/appCsp';
import { AppServer } from '../src/extension/apps/appServer';
import { launchChromium, openChatPage } from './chatPage';
import { median, record } from './results';

const ROUNDS = Number(process.env.BENCH_APP_ROUNDS ?? 7);
const APPS = 5;
const SCROLL_FRAMES = 120;
const VANILLA_HTML = join(
  __dirname,
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-basic-vanillajs',
  'dist',
  'mcp-app.html',
);
const PAINTED = `<script>requestAnimationFrame(() => requestAnimationFrame(() => parent.postMessage({ jsonrpc: '2.0', method: 'bench/painted' }, '*')));</script>`;

const card = (i: number, app: boolean) => ({
  kind: 'tool',
  id: `t${i}`,
  card: {
    callId: `c${i}`,
    name: 'get-time',
    wireName: 'get-time',
    server: 'vanilla',
    arguments: '{}',
    status: 'done',
    startedAt: 1,
    durationMs: 5,
    result: `2026-12-03T18:00:0${i}.000Z`,
    ...(app
      ? {
          app: {
            resourceUri: 'ui://get-time/mcp-app.html',
            result: { content: [{ type: 'text', text: `2026-12-03T18:00:0${i}.000Z` }] },
          },
        }
      : {}),
  },
});

/** The harness's host: answers each `appOpen` with the app's address, and notes when each app said it painted. */
async function hostPage(page: Page, url: string): Promise<void> {
  await page.evaluate(`(() => {
    window.__painted = {};
    window.__post = (m) => window.dispatchEvent(new MessageEvent('message', { data: m, origin: window.origin }));
    window.__sent = (m) => {
      if (m.type === 'appOpen') queueMicrotask(() => window.__post({ type: 'appFrame', callId: m.callId, url: ${JSON.stringify(url)} }));
      if (m.type === 'appMessage' && m.message.method === 'bench/painted') window.__painted[m.callId] = performance.now();
    };
  })()`);
}

const FIRST_PAINT = (url: string, oursFirst: boolean) => `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  window.__post({ type: 'state', state: { items: [{ kind: 'user', id: 'u1', text: 'What time is it?' }], busy: false, models: [] } });
  await frame();
  // A warm-up load of the same document, so neither side pays the browser's first fetch and compile.
  await plain(true);
  async function ours() {
    const t0 = performance.now();
    window.__post({ type: 'append', item: ${JSON.stringify(card(0, true))} });
    const deadline = t0 + 30000;
    while (!window.__painted.c0) {
      if (performance.now() > deadline) throw new Error('the app in the chat did not paint');
      await new Promise((r) => setTimeout(r, 1));
    }
    return window.__painted.c0 - t0;
  }
  async function plain(warmUp = false) {
    const t0 = performance.now();
    let painted;
    const seen = new Promise((r) => window.addEventListener('message', function on(e) { if (e.data && e.data.method === 'bench/painted' && e.source === f.contentWindow) { painted = performance.now(); window.removeEventListener('message', on); r(); } }));
    const f = document.createElement('iframe');
    f.setAttribute('sandbox', 'allow-scripts');
    f.style.cssText = 'width: 100%; height: 160px; border: 0';
    f.src = ${JSON.stringify(url)};
    document.getElementById('transcript').append(f);
    await seen;
    // Kept in the page: a second frame then finds the browser's frame process running, as a chat's does.
    if (warmUp) f.style.height = '0';
    return painted - t0;
  }
  const a = ${oursFirst} ? await ours() : await plain();
  await frame();
  const b = ${oursFirst} ? await plain() : await ours();
  return ${oursFirst} ? { ours: a, plain: b } : { ours: b, plain: a };
})()`;

const SCROLL = (apps: boolean) => `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const items = [];
  for (let i = 0; i < ${APPS}; i++) {
    items.push({ kind: 'user', id: 'u' + i, text: 'What time is it? '.repeat(20) });
    items.push(${JSON.stringify([0, 1, 2, 3, 4].map((i) => card(i, true)))}[i]);
    items.push({ kind: 'assistant', id: 'a' + i, text: 'Here is what the tool returned. '.repeat(40) });
  }
  if (!${apps}) for (const item of items) if (item.kind === 'tool') delete item.card.app;
  window.__post({ type: 'state', state: { items, busy: false, models: [] } });
  // Every card's app framed (an app out of view does not paint until it scrolls in), then a moment to load.
  const deadline = performance.now() + 30000;
  if (${apps}) while (document.querySelectorAll('.app-host iframe').length < ${APPS}) {
    if (performance.now() > deadline) throw new Error('the apps were not framed');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1000));
  for (let i = 0; i < 10; i++) await frame();
  const transcript = document.getElementById('transcript');
  transcript.scrollTop = 0;
  const step = Math.max(1, (transcript.scrollHeight - transcript.clientHeight) / ${SCROLL_FRAMES});
  const times = [];
  let last = performance.now();
  for (let i = 0; i < ${SCROLL_FRAMES}; i++) {
    transcript.scrollTop = transcript.scrollTop + step * (Math.floor(i / ${SCROLL_FRAMES / 2}) % 2 === 0 ? 1 : -1);
    await frame();
    const now = performance.now();
    times.push(now - last);
    last = now;
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
})()`;

export async function benchAppPaint(): Promise<void> {
  const browser = await launchChromium('apps');
  if (!browser) return;
  const server = await AppServer.start();
  const html = readFileSync(VANILLA_HTML, 'utf8').replace('</body>', `${PAINTED}</body>`);
  const paint = { ours: [] as number[], plain: [] as number[], ratios: [] as number[] };
  const scroll = { live: [] as number[], still: [] as number[], ratios: [] as number[] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const published = server.publish({
        html,
        csp: appCsp({ resourceDomains: [], connectDomains: [], frameDomains: [] }),
        clipboardWrite: false,
      });
      const page = await openChatPage(browser);
      await hostPage(page, published.url);
      const r = (await page.evaluate(FIRST_PAINT(published.url, round % 2 === 0))) as { ours: number; plain: number };
      paint.ours.push(r.ours);
      paint.plain.push(r.plain);
      paint.ratios.push(r.ours / r.plain);
      await page.close();
      const frames: Record<string, number> = {};
      for (const apps of round % 2 === 0 ? [true, false] : [false, true]) {
        const p = await openChatPage(browser);
        await hostPage(p, published.url);
        frames[String(apps)] = (await p.evaluate(SCROLL(apps))) as number;
        await p.close();
      }
      scroll.live.push(frames.true!);
      scroll.still.push(frames.false!);
      scroll.ratios.push(frames.true! / frames.false!);
      published.revoke();
    }
  } finally {
    await browser.close();
    server.dispose();
  }
  const spread = (v: number[]) => ({ ratio: median(v), ratioMin: Math.min(...v), ratioMax: Math.max(...v) });
  record(
    'apps',
    `first paint of an app in the chat vs the same document in a plain sandboxed iframe (${ROUNDS} rounds, ratio within each)`,
    {
      minagentMs: median(paint.ours),
      plainIframeMs: median(paint.plain),
      ...spread(paint.ratios),
    },
  );
  record(
    'apps',
    `median frame time scrolling a transcript with ${APPS} live apps vs the same cards as text (${ROUNDS} rounds, ratio within each)`,
    {
      liveAppsMs: median(scroll.live),
      textCardsMs: median(scroll.still),
      ...spread(scroll.ratios),
    },
  );
}

if (require.main === module) void benchAppPaint().then(() => process.exit(0));
