// Tool calls and their outcomes in the server's log, with the server's secrets redacted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import type { Logger } from '../../src/core/base/logger';
import { fixture } from '../helpers';

function recorder(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (m: string) => lines.push(`${level} ${m}`);
  return { logger: { trace: at('trace'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

describe('the tool call log', () => {
  test('a call, its arguments (secrets redacted), and how it ended: answered, failed as a warning', {
    timeout: 30_000,
  }, async () => {
    const secret = 'sk-live-0123456789abcdef';
    const { logger, lines } = recorder();
    const s = new McpToolSource(fixture('research', 'research.mjs', [], { secrets: [secret] }), { logger });
    try {
      await s.connect();
      const result = await s.call('echo', { text: `my key is ${secret}` });
      assert.equal(result, 'my key is [redacted]');
      await s.call('no_such_tool', {});
      const log = lines.join('\n');
      assert.doesNotMatch(log, new RegExp(secret), 'the secret never reaches the log');
      assert.match(log, /info tool call "echo" \{"text":"my key is \[redacted\]"\}/);
      assert.match(log, /info tool "echo" answered in \d+ ms \(20 chars\)/);
      assert.match(log, /warn tool "no_such_tool" failed after \d+ ms: .*no_such_tool/);
    } finally {
      await s.close();
    }
  });
});
