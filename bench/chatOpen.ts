// Opening a conversation of 500 turns: the host reads its file (FileConversationStore) into the
// state a view is sent, against a floor that reads and parses the same data as one JSON document;
// then the webview renders that state (headless Chromium, the real bundle). Min-max over 5 runs.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Conversation } from '../src/core/chat/conversation/conversation';
import { FileConversationStore } from '../src/core/chat/conversation/fileConversationStore';
import type { ToolCard } from '../src/shared/protocol';
import { launchChromium, openChatPage } from './chatPage';
import { median, record } from './results';

const TURNS = 500;
const RUNS = 5;
const SHORT = 10;

/** A turn as a working session makes them: a question, a tool card with a 2 KB result, a Markdown answer. */
function addTurn(c: Conversation, n: number): void {
  const result = JSON.stringify({ rows: Array.from({ length: 40 }, (_, i) => ({ id: i, name: `row ${n}.${i}` })) });
  const tool = c.newId('t');
  const card: ToolCard = {
    callId: tool,
    name: 'analytics.query',
    wireName: 'analytics__query',
    server: 'analytics',
    arguments: '{\n  "sql": "select * from t"\n}',
    status: 'done',
    startedAt: Date.now(),
    result,
    resultChars: result.length,
    durationMs: 12,
  };
  const answer = `Here are the rows for **question ${n}**:\n\n| id | name |\n| --- | --- |\n| 1 | one |\n| 2 | two |\n\n\`\`\`sql\nselect * from t where n = ${n};\n\`\`\`\n\nAnything else?`;
  c.append({ kind: 'user', id: c.newId('u'), text: `question ${n}: show me the rows` });
  c.append({ kind: 'tool', id: tool, card });
  c.setFullResult(tool, result);
  c.append({ kind: 'assistant', id: c.newId('a'), text: answer });
  c.messages = [
    ...c.messages,
    { role: 'user', content: `question ${n}` },
    { role: 'assistant', content: '', toolCalls: [{ id: `k${n}`, name: 'analytics__query', arguments: '{}' }] },
    { role: 'tool', toolCallId: `k${n}`, name: 'analytics__query', content: result },
    { role: 'assistant', content: answer },
  ];
}

const span = (xs: number[]) => ({ min: Math.min(...xs), max: Math.max(...xs) });

export async function benchChatOpen(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-bench-chat-'));
  try {
    // Written turn by turn, as the chat saves it (appends, compaction if it passes the bound).
    const writer = new FileConversationStore(dir);
    const c = await writer.current();
    for (let n = 0; n < TURNS; n++) {
      addTurn(c, n);
      await writer.save(c);
    }
    const bytes = statSync(join(dir, `${c.id}.jsonl`)).size;
    const floorFile = join(dir, 'floor.json');
    writeFileSync(floorFile, JSON.stringify({ items: c.items, messages: c.messages, results: c.allResults() }));

    const ours: number[] = [];
    const floors: number[] = [];
    let state = '';
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      const opened = await new FileConversationStore(dir).current();
      state = JSON.stringify({ type: 'state', state: { items: opened.items, busy: false, models: [] } });
      ours.push(performance.now() - t0);
      const t1 = performance.now();
      const floor = JSON.parse(readFileSync(floorFile, 'utf8')) as { items: unknown[] };
      JSON.stringify({ type: 'state', state: { items: floor.items, busy: false, models: [] } });
      floors.push(performance.now() - t1);
    }
    const o = span(ours);
    const f = span(floors);
    record(
      'chat open',
      `a ${TURNS}-turn conversation (${(bytes / 1e6).toFixed(1)} MB file): read into the state a view is sent, min-max of ${RUNS}`,
      {
        minagentMsMin: o.min,
        minagentMsMax: o.max,
        floorMsMin: f.min,
        floorMsMax: f.max,
        ratioMedian: median(ours) / median(floors),
      },
    );

    // The webview's baseline: the same turns, only SHORT of them, in fresh pages alike (a new
    // webview starts with a cold JIT either way), interleaved with the long one.
    const short = new Conversation('short');
    for (let n = 0; n < SHORT; n++) addTurn(short, n);
    const shortState = JSON.stringify({ type: 'state', state: { items: short.items, busy: false, models: [] } });
    const browser = await launchChromium('chat open: webview render');
    if (!browser) return;
    const renders: number[] = [];
    const shortRenders: number[] = [];
    const firstFrame = async (json: string) => {
      const page = await openChatPage(browser);
      const ms = (await page.evaluate(`(async () => {
        const data = JSON.parse(${JSON.stringify(json)});
        const t0 = performance.now();
        window.dispatchEvent(new MessageEvent('message', { data, origin: window.origin }));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        return performance.now() - t0;
      })()`)) as number;
      await page.close();
      return ms;
    };
    for (let run = 0; run < RUNS; run++) {
      if (run % 2) shortRenders.push(await firstFrame(shortState));
      renders.push(await firstFrame(state));
      if (!(run % 2)) shortRenders.push(await firstFrame(shortState));
    }
    await browser.close();
    const r = span(renders);
    const sr = span(shortRenders);
    const ratios = renders.map((x, i) => x / shortRenders[i]!);
    record(
      'chat open',
      `the webview shows the ${TURNS}-turn conversation (first frame) vs a ${SHORT}-turn one, min-max of ${RUNS}`,
      {
        renderMsMin: r.min,
        renderMsMax: r.max,
        shortRenderMsMin: sr.min,
        shortRenderMsMax: sr.max,
        ratio: median(renders) / median(shortRenders),
        ratioMin: Math.min(...ratios),
        ratioMax: Math.max(...ratios),
        hostPlusRenderMsMax: o.max + r.max,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void benchChatOpen().then(() => process.exit(0));
