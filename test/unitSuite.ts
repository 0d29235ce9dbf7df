// Every file of test/unit in one process, as `npm test` runs them: each file on its own costs a Node
// and a TypeScript loader start (0.6 CPU-seconds) and its own compile of the sources it imports; the
// 58 files took 63 CPU-seconds one process each and 9 in this one (same 320 tests). A file alone:
// `node --import tsx --test test/unit/NAME.test.ts`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

for (const file of readdirSync(join(__dirname, 'unit')).filter((f) => f.endsWith('.test.ts')).sort()) require(join(__dirname, 'unit', file));
