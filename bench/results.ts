import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `rounds` rounds of a baseline and a subject, alternating which goes first so neither always
 * meets a warmer or busier machine; resolves with each side's results in round order.
 */
export async function alternate<B, S>(
  rounds: number,
  baseline: () => Promise<B>,
  subject: () => Promise<S>,
): Promise<{ baseline: B[]; subject: S[] }> {
  const out = { baseline: [] as B[], subject: [] as S[] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2) out.baseline.push(await baseline());
    out.subject.push(await subject());
    if (!(i % 2)) out.baseline.push(await baseline());
  }
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const rows: Array<{ bench: string; case: string; figures: Record<string, number> }> = [];

export function record(bench: string, label: string, figures: Record<string, number>): void {
  const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  rows.push({ bench, case: label, figures: rounded });
  console.log(
    `${bench} | ${label} | ${Object.entries(rounded)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}

export interface Results {
  date: string;
  node: string;
  cpus: number;
  cpu: string;
  memoryGb: number;
  rows: typeof rows;
}

/** Where a run's figures go; `npm run docs` copies them to the tracked bench/results.json and docs/PERFORMANCE.md. */
export const RUN_RESULTS = join(__dirname, '.tmp', 'results.json');

export function save(): Results {
  const out: Results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? '',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    rows,
  };
  mkdirSync(join(__dirname, '.tmp'), { recursive: true });
  writeFileSync(RUN_RESULTS, `${JSON.stringify(out, null, 2)}\n`);
  console.log(
    `figures written to ${RUN_RESULTS}; \`npm run docs\` records them in bench/results.json and docs/PERFORMANCE.md`,
  );
  return out;
}
