import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { firstValueSelection, resultDocument } from '../../src/core/tryToolText';

describe("Try Tool's argument box and result document", () => {
  test('the cursor goes inside the first value, not over the whole text', () => {
    const json = '{"query":""}';
    assert.deepEqual(firstValueSelection(json), [10, 10], 'between the quotes of the empty string');
    assert.deepEqual(firstValueSelection('{"n":0,"s":"x"}'), [5, 6], 'a number is selected to be replaced');
    assert.deepEqual(firstValueSelection('{"text":"hello"}'), [9, 14]);
    assert.deepEqual(firstValueSelection('{}'), [1, 1]);
  });

  test('the document names tool and server and carries the arguments and duration', () => {
    const doc = resultDocument({
      tool: 'analytics.echo',
      server: 'analytics',
      args: { text: 'hi' },
      durationMs: 42,
      result: '{"a":1}',
      error: false,
    });
    assert.match(doc, /^# analytics\.echo · analytics\n/);
    assert.match(doc, /\*\*Arguments:\*\* `\{"text":"hi"\}`/);
    assert.match(doc, /\*\*Duration:\*\* 42 ms/);
    assert.match(doc, /```json\n\{\n {2}"a": 1\n\}\n```/);
  });

  test('a failure reads as the server wrote it: one line per problem, no escaped quotes or \\n', () => {
    // What mcp-server-code-runner 0.1.8 (SDK 1.x, zod 3) answers to run-code with languageId 3 and no code.
    const message =
      "MCP error -32602: Input validation error: Invalid arguments for tool run-code: Required at code\nExpected 'javascript' | 'php', received number at languageId";
    const doc = resultDocument({
      tool: 'run-code',
      server: 'runner',
      args: { languageId: 3 },
      durationMs: 5,
      result: JSON.stringify({ error: message }),
      error: true,
    });
    assert.match(doc, /\*\*Outcome:\*\* error/);
    assert.ok(doc.includes(`\`\`\`text\n${message}\n\`\`\``), doc);
    assert.doesNotMatch(doc, /\\n|\\"/, 'nothing escaped');
    // An error result that is not our {"error"} shape stays as it came.
    assert.match(
      resultDocument({ tool: 't', args: {}, durationMs: 1, result: '{"a":1}', error: true }),
      /```json\n\{\n {2}"a": 1\n\}\n```/,
    );
  });

  test('a result with backticks cannot close its fence early', () => {
    const doc = resultDocument({ tool: 't', args: {}, durationMs: 1, result: 'text ```` more', error: false });
    assert.match(doc, /`````text\ntext ```` more\n`````/);
  });

  test('a tool with an app says where its app is, which the chat shows and this document does not', () => {
    const doc = resultDocument({
      tool: 'get-time',
      server: 'vanilla',
      app: { resourceUri: 'ui://get-time/mcp-app.html' },
      args: {},
      durationMs: 3,
      result: '2026-12-03T15:31:02.141Z',
      error: false,
    });
    assert.match(
      doc,
      /- \*\*App:\*\* `ui:\/\/get-time\/mcp-app\.html` \(shown under the tool's card in the chat; here, its text\)/,
    );
    assert.doesNotMatch(
      resultDocument({ tool: 't', args: {}, durationMs: 1, result: 'x', error: false }),
      /\*\*App:\*\*/,
    );
  });
});
