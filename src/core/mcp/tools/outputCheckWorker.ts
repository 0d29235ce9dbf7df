// The worker thread that checks tool results against their tools' outputSchema (outputCheck.ts starts it): a schema
// and its data are a server's, so compiling and matching (a `pattern` that backtracks for ever, a schema that takes
// long to compile) run here, where the host can stop them, never on the extension host's own thread.
import { parentPort } from 'node:worker_threads';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

type Check = (data: unknown) => { valid: boolean; errorMessage?: string };

/** Compiled schemas kept, by their JSON: a tool's schema is compiled once, not per call. */
const MAX_KEPT = 200;
const validator = new AjvJsonSchemaValidator();
const kept = new Map<string, Check>();

function compiled(schema: string): Check {
  let check = kept.get(schema);
  if (!check) {
    check = validator.getValidator(JSON.parse(schema)) as Check;
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(schema, check);
  }
  return check;
}

parentPort?.on('message', (m: { id: number; schema: string; data: unknown }) => {
  try {
    const r = compiled(m.schema)(m.data);
    parentPort?.postMessage({ id: m.id, valid: r.valid, message: r.errorMessage });
  } catch (err) {
    parentPort?.postMessage({ id: m.id, unusable: err instanceof Error ? err.message : String(err) });
  }
});
