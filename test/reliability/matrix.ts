// Rows of the reliability matrix. Every cell is a value a test observed AND asserted against an
// expectation that names the behaviour; the matrix prints both. Rows are kept only from tests that
// passed, and the rows file is written only when every test of the suite passed (a filtered or
// failing run writes nothing). `npm run docs` turns that file into docs/RELIABILITY.md; a test run
// never touches a tracked file.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers';

/** A value a test saw, and the expectation it was asserted against. */
export interface Seen {
  what: string;
  observed: string;
  expected: string;
}

export interface Row {
  area: string;
  fault: string;
  /** What the user sees: the server state, the chat notice, the problem node. */
  user: Seen[];
  /** What the model sees: the tool result string, or that nothing reaches it. */
  model: Seen[];
  /** What was checked to be kept: the conversation, the other servers, no process left. */
  kept: Seen[];
}

export const ROWS_FILE = join(ROOT, '.test-artifacts', 'reliability-rows.json');

type Expectation = string | number | boolean | RegExp | { atMost: number } | { atLeast: number };

const describeExpectation = (e: Expectation): string => {
  if (e instanceof RegExp) return `matches ${String(e)}`;
  if (typeof e === 'object') return 'atMost' in e ? `at most ${e.atMost}` : `at least ${e.atLeast}`;
  return `equals ${JSON.stringify(e)}`;
};

/**
 * Asserts `observed` against `expected` and returns the cell content. `what` names the observation
 * ("the server state", "the tool result"), so the matrix reads without the test open beside it.
 */
export function seen(what: string, observed: string | number | boolean, expected: Expectation): Seen {
  if (expected instanceof RegExp) assert.match(String(observed), expected, what);
  else if (typeof expected === 'object' && 'atMost' in expected)
    assert.ok(Number(observed) <= expected.atMost, `${what}: ${observed} > ${expected.atMost}`);
  else if (typeof expected === 'object')
    assert.ok(Number(observed) >= expected.atLeast, `${what}: ${observed} < ${expected.atLeast}`);
  else assert.equal(observed, expected, what);
  return { what, observed: String(observed), expected: describeExpectation(expected) };
}

const rows: Row[] = [];
let declared = 0;
let passed = 0;

/** What a case records its rows with. */
export type RecordRow = (row: RowInput) => void;
type Fn = (ctx: { record: RecordRow }) => Promise<void> | void;
export type RowInput = Omit<Row, 'user' | 'model' | 'kept'> & {
  user: Seen | Seen[];
  model: Seen | Seen[];
  kept: Seen | Seen[];
};
const list = (s: Seen | Seen[]) => (Array.isArray(s) ? s : [s]);

/**
 * A reliability case: a node:test whose recorded rows count only if the whole case passes. `record`
 * collects rows; `finally` callbacks may add to every row of the case (e.g. that no process was left).
 */
export function matrixTest(name: string, ...rest: [Fn] | [{ timeout: number }, Fn]): void {
  const [options, fn] = rest.length === 2 ? rest : [{ timeout: 120_000 }, rest[0]];
  declared++;
  test(name, options, async () => {
    const mine: Row[] = [];
    await fn({
      record: (r) =>
        mine.push({ area: r.area, fault: r.fault, user: list(r.user), model: list(r.model), kept: list(r.kept) }),
    });
    assert.ok(mine.length > 0, `case "${name}" recorded no row`);
    rows.push(...mine);
    passed++;
  });
}

/** Writes the rows file when every declared case passed; returns whether it did. */
export function writeRowsIfComplete(): boolean {
  if (passed !== declared || declared === 0) return false;
  mkdirSync(join(ROOT, '.test-artifacts'), { recursive: true });
  writeFileSync(ROWS_FILE, `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  return true;
}
