// The mock model server (fixtures/models/mock-model.mjs) in-process, closed after the file's tests.
import { join } from 'node:path';
import { after } from 'node:test';
import { ROOT } from './helpers';

export interface MockModel {
  port: number;
  requests: Array<{
    format: string;
    headers: Record<string, string>;
    body: { messages: Array<{ role: string; content: unknown }>; [k: string]: unknown };
  }>;
  close(): Promise<void>;
}

const running: MockModel[] = [];
// Registered when a test file imports this module: it runs once that file's tests are done.
after(() => Promise.all(running.splice(0).map((m) => m.close())));

/** Starts a mock that answers `replies` in order (see the fixture for the reply fields). */
export async function startMockModel(replies: Array<Record<string, unknown>>): Promise<MockModel> {
  const { startMockModel: start } = (await import(join(ROOT, 'fixtures', 'models', 'mock-model.mjs'))) as {
    startMockModel: (o: { replies: unknown[] }) => Promise<MockModel>;
  };
  const m = await start({ replies });
  running.push(m);
  return m;
}

/** Starts a mock that picks tools by the user's words, as the demo's does (see ruleReply in the fixture). */
export async function startRuleModel(): Promise<MockModel> {
  const { startMockModel: start } = (await import(join(ROOT, 'fixtures', 'models', 'mock-model.mjs'))) as {
    startMockModel: (o: object) => Promise<MockModel>;
  };
  const m = await start({});
  running.push(m);
  return m;
}
