// The CLI's resource and prompt commands as a user runs them: the built bin, on a settings file.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, SERVERS } from '../helpers';

const work = mkdtempSync(join(tmpdir(), 'minagent-cli-features-'));
mkdirSync(join(work, '.vscode'));
writeFileSync(
  join(work, '.vscode', 'settings.json'),
  JSON.stringify({
    'minagent.servers': {
      alpha: { command: 'node', args: [`${SERVERS}/library.mjs`], env: { LIBRARY_LABEL: 'alpha' } },
      beta: { command: 'node', args: [`${SERVERS}/library.mjs`], env: { LIBRARY_LABEL: 'beta' } },
      research: { command: 'node', args: [`${SERVERS}/research.mjs`] },
    },
  }),
);

const cli = (args: string[]) => runCli(['--trust', ...args], { cwd: work });

describe('minagent resources, read, prompts, prompt', { timeout: 120_000 }, () => {
  test('resources: one line per resource and template, by server; --json gives both lists', () => {
    const { code, out } = cli(['resources']);
    assert.equal(code, 0);
    assert.deepEqual(out.trim().split('\n'), [
      'alpha\tlibrary://notes/readme\tNote readme\ttext/plain',
      'alpha\tlibrary://notes/guide\tNote guide\ttext/plain',
      'beta\tlibrary://notes/readme\tNote readme\ttext/plain',
      'beta\tlibrary://notes/guide\tNote guide\ttext/plain',
      'alpha\tlibrary://books/{shelf}/{title}\tbook\ttemplate: shelf, title',
      'beta\tlibrary://books/{shelf}/{title}\tbook\ttemplate: shelf, title',
    ]);
    const json = JSON.parse(cli(['resources', '--json']).out) as {
      resources: Array<{ server: string; uri: string }>;
      templates: Array<{ uriTemplate: string; variables: string[] }>;
    };
    assert.equal(json.resources.length, 4);
    assert.deepEqual(json.templates[0]!.variables, ['shelf', 'title']);
  });

  test('read: a URI two servers list needs --server, and says which', () => {
    const ambiguous = cli(['read', 'library://notes/readme']);
    assert.equal(ambiguous.code, 2);
    assert.match(
      ambiguous.err,
      /\nminagent: <library:\/\/notes\/readme> is listed by more than one server \(alpha, beta\); pick one with --server\n$/,
    );
    const beta = cli(['read', 'library://notes/readme', '--server', 'beta']);
    assert.deepEqual([beta.code, beta.out], [0, 'Welcome to the beta.\n']);
    const json = JSON.parse(cli(['read', 'library://books/science/Cosmos', '--server', 'alpha', '--json']).out) as {
      server: string;
      contents: Array<{ text: string }>;
    };
    assert.equal(json.contents[0]!.text, 'alpha: "Cosmos" from the science shelf');
    const missing = cli(['read', 'library://notes/none', '--server', 'alpha']);
    assert.equal(missing.code, 1);
    assert.match(JSON.parse(missing.out).error as string, /none|not found/i);
    assert.match(cli(['read']).err, /read needs a resource URI/);
  });

  test('prompts: merged names by the conflict policy, the server beside each; --json with arguments', () => {
    const { code, out } = cli(['prompts']);
    assert.equal(code, 0);
    assert.deepEqual(out.trim().split('\n'), [
      'summarize\talpha\tSummarize a note of the alpha\tnote [style]',
      'beta.summarize\tbeta\tSummarize a note of the beta\tnote [style]',
    ]);
    const rows = (
      JSON.parse(cli(['prompts', '--json']).out) as {
        prompts: Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }>;
      }
    ).prompts;
    assert.deepEqual(rows[1]!.arguments, [
      { name: 'note', required: true, description: 'The note to summarize' },
      { name: 'style', required: false, description: 'How to write it' },
    ]);
  });

  test('prompt NAME JSON: the messages; missing arguments and bad JSON are clear errors', () => {
    const { code, out } = cli(['prompt', 'beta.summarize', '{"note": "guide"}']);
    assert.equal(code, 0);
    assert.equal(
      out,
      'user: Summarize note guide of the beta.\n\nuser: [resource <library://notes/guide>]\nHow to use the beta: read the notes.\n',
    );
    const json = JSON.parse(cli(['prompt', 'summarize', '{"note":"readme"}', '--json']).out) as {
      server: string;
      messages: unknown[];
    };
    assert.deepEqual([json.server, json.messages.length], ['alpha', 2]);
    const missing = cli(['prompt', 'summarize']);
    assert.deepEqual([missing.code, missing.out], [1, '{"error":"prompt \\"summarize\\" needs \\"note\\""}\n']);
    assert.match(cli(['prompt', 'summarize', '{"note": 3}']).err, /must be a JSON object of strings/);
    const unknown = cli(['prompt', 'nope', '{}']);
    assert.deepEqual([unknown.code, unknown.out], [1, '']);
    assert.match(unknown.err, /\nminagent: unknown prompt "nope"; prompts: summarize, beta\.summarize\n$/);
  });
});
