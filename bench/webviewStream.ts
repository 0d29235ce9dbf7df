// 5b. Streaming 10,000 tokens into the chat webview, in headless Chromium with the real bundle and
// stylesheet: time until the last token shows (tokens arriving 50 per task), against a floor that only
// appends text to one node per token with the same pacing, in the same page. Each round runs in a fresh
// page and alternates which of the two goes first, so neither always meets a warm (or a busy) browser;
// the ratio is taken within each round. Also counts how many times the transcript's children were
// replaced (the DOM is not rebuilt per token), and the renderer's main-thread busy time for each (Chromium's
// own TaskDuration), a figure the waits for frames and the machine's other tenants move less than the wall time.
import { launchChromium, openChatPage } from './chatPage';
import { median, record } from './results';

const TOKENS = 10_000;
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 9);

const ROUND = (oursFirst: boolean): string => `(async () => {
  const post = (m) => window.dispatchEvent(new MessageEvent('message', { data: m, origin: window.origin }));
  // A task boundary without setTimeout's 4 ms clamp.
  const yieldTask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  post({ type: 'state', state: { items: [], busy: true, models: [] } });
  post({ type: 'append', item: { kind: 'assistant', id: 'a1', text: '', streaming: true } });
  const transcript = document.getElementById('transcript');
  let replaced = 0;
  new MutationObserver((ms) => { for (const m of ms) replaced += m.addedNodes.length; }).observe(transcript, { childList: true });
  const want = ${TOKENS} * 4;
  const busy = { ours: 0, floor: 0 };
  async function ours() {
    await frame();
    const t0 = performance.now();
    // Tokens arrive over time, 50 per task, as a stream from the host does.
    for (let i = 0; i < ${TOKENS}; i++) {
      post({ type: 'textDelta', id: 'a1', delta: 'tok ' });
      if (i % 50 === 49) await yieldTask();
    }
    await new Promise((resolve) => {
      const check = () => (transcript.textContent.length >= want - 8 ? resolve() : requestAnimationFrame(check));
      check();
    });
    return performance.now() - t0;
  }
  async function floor() {
    const floorEl = document.createElement('div');
    transcript.after(floorEl);
    await frame();
    const t1 = performance.now();
    for (let i = 0; i < ${TOKENS}; i++) {
      floorEl.append('tok ');
      if (i % 50 === 49) await yieldTask();
    }
    await frame();
    return performance.now() - t1;
  }
  const timed = async (name, run) => { await window.__busy('start'); const ms = await run(); busy[name] = await window.__busy('stop'); return ms; };
  const a = ${oursFirst} ? await timed('ours', ours) : await timed('floor', floor);
  const b = ${oursFirst} ? await timed('floor', floor) : await timed('ours', ours);
  return ${oursFirst} ? { ours: a, floor: b, replaced, busy } : { ours: b, floor: a, replaced, busy };
})()`;

type Round = { ours: number; floor: number; replaced: number; busy: { ours: number; floor: number } };

export async function benchWebviewStream(): Promise<void> {
  const browser = await launchChromium('webview stream');
  if (!browser) return;
  const ours: number[] = [];
  const floors: number[] = [];
  const ratios: number[] = [];
  const busyRatios: number[] = [];
  let replaced = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const page = await openChatPage(browser);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskSeconds = async (): Promise<number> =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    let started = 0;
    await page.exposeFunction('__busy', async (what: string) => {
      if (what === 'start') started = await taskSeconds();
      else return ((await taskSeconds()) - started) * 1000;
      return 0;
    });
    const result = (await page.evaluate(ROUND(round % 2 === 0))) as Round;
    ours.push(result.ours);
    floors.push(result.floor);
    ratios.push(result.ours / result.floor);
    busyRatios.push(result.busy.ours / result.busy.floor);
    replaced = Math.max(replaced, result.replaced);
    await page.close();
  }
  await browser.close();
  record(
    'webview',
    `streaming ${TOKENS.toLocaleString()} tokens into one message (${ROUNDS} rounds, ratio within each)`,
    {
      minagentMs: median(ours),
      appendOnlyFloorMs: median(floors),
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
      busyRatio: median(busyRatios),
      busyRatioMin: Math.min(...busyRatios),
      busyRatioMax: Math.max(...busyRatios),
      transcriptChildrenReplaced: replaced,
    },
  );
}

if (require.main === module) void benchWebviewStream().then(() => process.exit(0));
