// 5c. A card update in a long transcript: one `update` message (a tool card goes from running to
// done) in the chat webview with 1,000 transcript items against the same with 10, headless
// Chromium, the real bundle and stylesheet. Each sample is the message's handling plus the style
// and layout it causes (forced by a read, as the next frame would), alternating sizes per round.
import type { Page } from 'playwright-core';
import { launchChromium, openChatPage } from './chatPage';
import { median, record } from './results';

const ROUNDS = 5;
const UPDATES = 40;

function items(n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; out.length < n; i++) {
    out.push({ kind: 'user', id: `u${i}`, text: `question ${i}` });
    out.push({ kind: 'tool', id: `t${i}`, card: { callId: `t${i}`, name: 'echo', wireName: 'echo', server: 'research', arguments: '{\n  "text": "x"\n}', status: 'done', startedAt: 1, result: `result ${i}`, resultChars: 8, durationMs: 3 } });
    out.push({ kind: 'assistant', id: `a${i}`, text: `The answer to **question ${i}**:\n\n- one\n- two\n\n\`code ${i}\`` });
  }
  return out.slice(0, n);
}

async function sample(page: Page, n: number): Promise<number> {
  return (await page.evaluate(`(async () => {
    const post = (m) => window.dispatchEvent(new MessageEvent('message', { data: m }));
    const base = ${JSON.stringify(items(n))};
    base.push({ kind: 'tool', id: 'live', card: { callId: 'live', name: 'slow', wireName: 'slow', server: 'worker', arguments: '{}', status: 'running', startedAt: 1 } });
    post({ type: 'state', state: { items: base, busy: true, models: [] } });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const transcript = document.getElementById('transcript');
    const times = [];
    for (let i = 0; i < ${UPDATES}; i++) {
      const t0 = performance.now();
      post({ type: 'update', item: { kind: 'tool', id: 'live', card: { callId: 'live', name: 'slow', wireName: 'slow', server: 'worker', arguments: '{}', status: i % 2 ? 'running' : 'done', startedAt: 1, progress: { progress: i, total: ${UPDATES} } } } });
      transcript.scrollHeight; // the style and layout the change costs
      times.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    times.sort((a, b) => a - b);
    return times[times.length >> 1];
  })()`)) as number;
}

export async function benchWebviewUpdate(): Promise<void> {
  const browser = await launchChromium('webview update');
  if (!browser) return;
  const open = () => openChatPage(browser);
  const small: number[] = [];
  const large: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [n, into] of (round % 2 ? [[1000, large], [10, small]] : [[10, small], [1000, large]]) as Array<[number, number[]]>) {
      const page = await open();
      into.push(await sample(page, n));
      await page.close();
    }
  }
  await browser.close();
  const ratios = large.map((l, i) => l / small[i]!);
  record('webview', `a card update at 1,000 transcript items vs 10 (median of ${UPDATES} updates per round, ${ROUNDS} rounds)`, {
    at10Ms: median(small),
    at1000Ms: median(large),
    ratio: median(large) / median(small),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
  });
}

if (require.main === module) void benchWebviewUpdate().then(() => process.exit(0));
