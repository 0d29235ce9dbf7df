// code-server on the demo workspace with its chat on the mock model server (OpenAI-compatible).
import { listeningFixture } from '../helpers';
import { startCodeServer } from './codeServer';

export async function startDemoWithMockModel(): Promise<{ mock: Awaited<ReturnType<typeof listeningFixture>>; cs: Awaited<ReturnType<typeof startCodeServer>> }> {
  const mock = await listeningFixture('fixtures/models/mock-model.mjs');
  // The demo workspace itself, as `npm run demo` opens it.
  const cs = await startCodeServer({
    workspace: 'demo',
    inPlace: true,
    userSettings: { 'minagent.chat.provider': 'openai', 'minagent.chat.baseUrl': `http://127.0.0.1:${mock.port}/v1`, 'minagent.chat.model': 'mock-model' },
  });
  return { mock, cs };
}

export interface SeenRequest {
  /** Whether the client closed the request (a turn that ended mid-stream closes it). */
  closed: boolean;
  body: { messages: Array<{ role: string; content: unknown }>; max_tokens?: number; tools?: Array<{ function: { name: string } }> };
}

/** The requests the mock model server has seen, oldest first. */
export async function requests(port: string): Promise<SeenRequest[]> {
  return (await (await fetch(`http://127.0.0.1:${port}/requests`)).json()) as SeenRequest[];
}
