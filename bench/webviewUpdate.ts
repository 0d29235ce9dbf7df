// 5c. A card update in a long transcript: one `update` message (a tool card goes from running to
// done) in the chat webview with 1,000 transcript items against the same with 10, headless
// Chromium, the real bundle and stylesheet. Each sample is the message's handling plus the style
// and layout it causes (forced by a read, as the next frame would); both sizes are open together
// and their updates alternate.
import type { Page } from 'playwright-core';
import { launchChromium, openChatPage } from './chatPage';
import { median, record } from './results';

const ROUNDS = 5;
const UPDATES = 40;

function items(n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; out.length < n; i++) {
    out.push({ kind: 'user', id: `u${i}`, text: `question ${i}` });
    out.push({
      kind: 'tool',
      id: `t${i}`,
      card: {
        callId: `t${i}`,
        name: 'echo',
        wireName: 'echo',
        server: 'research',
        arguments: '{\n  "text": "x"\n}',
        status: 'done',
        startedAt: 1,
        result: `result ${i}`,
        resultChars: 8,
        durationMs: 3,
      },
    });
    out.push({
      kind: 'assistant',
      id: `a${i}`,
      text: `The answer to **question ${i}**:\n\n- one\n- two\n\n\`code ${i}\``,
    });
  }
  return out.slice(0, n);
}

/** Loads a transcript of `n` items with a running card at its end into the page. */
async function load(page: Page, n: number): Promise<void> {
  await page.evaluate(`(async () => {
    const base = ${JSON.stringify(items(n))};
    base.push({ kind: 'tool', id: 'live', card: { callId: 'live', name: 'slow', wireName: 'slow', server: 'worker', arguments: '{}', status: 'running', startedAt: 1 } });
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'state', state: { items: base, busy: true, models: [] } }, origin: window.origin }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  })()`);
}

/**
 * One card update: the message's handling plus the style and layout it causes (forced by a read, as the next frame
 * would).
 */
async function update(page: Page, i: number): Promise<number> {
  return (await page.evaluate(`(async () => {
    const transcript = document.getElementById('transcript');
    const t0 = performance.now();
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'update', item: { kind: 'tool', id: 'live', card: { callId: 'live', name: 'slow', wireName: 'slow', server: 'worker', arguments: '{}', status: ${i % 2 ? "'running'" : "'done'"}, startedAt: 1, progress: { progress: ${i}, total: ${UPDATES} } } } }, origin: window.origin }));
    transcript.scrollHeight;
    const ms = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return ms;
  })()`)) as number;
}

export async function benchWebviewUpdate(): Promise<void> {
  const browser = await launchChromium('webview update');
  if (!browser) return;
  const open = () => openChatPage(browser);
  const small: number[] = [];
  const large: number[] = [];
  // Both sizes open at once, their updates alternating (which goes first alternates too), so a burst
  // of load on the shared machine falls on both alike.
  for (let round = 0; round < ROUNDS; round++) {
    const [pSmall, pLarge] = [await open(), await open()];
    await load(pSmall, 10);
    await load(pLarge, 1000);
    const s: number[] = [];
    const l: number[] = [];
    for (let i = 0; i < UPDATES; i++) {
      const pair: Array<[Page, number[]]> = [
        [pSmall, s],
        [pLarge, l],
      ];
      for (const [page, into] of i % 2 ? pair.reverse() : pair) into.push(await update(page, i));
    }
    small.push(median(s));
    large.push(median(l));
    await pSmall.close();
    await pLarge.close();
  }
  await browser.close();
  const ratios = large.map((l, i) => l / small[i]!);
  record(
    'webview',
    `a card update at 1,000 transcript items vs 10 (median of ${UPDATES} updates per round, ${ROUNDS} rounds)`,
    {
      at10Ms: median(small),
      at1000Ms: median(large),
      ratio: median(large) / median(small),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
    },
  );
}

if (require.main === module) void benchWebviewUpdate().then(() => process.exit(0));
