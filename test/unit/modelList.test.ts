// The user's list of models (minagent.chat.models): validation that names the entry and field, the
// one-time move of the old provider settings into it, and the selection an older version stored.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  entryId,
  entryLabel,
  entryLabels,
  migrateLegacy,
  parseModelList,
  upgradeSelection,
  withEntry,
} from '../../src/core/models/modelList';

describe('parseModelList', () => {
  test('a bad entry is named by index and field and skipped; the others are kept', () => {
    const { entries, problems } = parseModelList([
      { provider: 'openai', baseUrl: 'http://localhost:11434/v1/', model: 'llama3.2' },
      { provider: 'openai', model: '' },
      { provider: 'anthropic', baseUrl: 'ftp://example.com', model: 'claude' },
      { provider: 'gemini', model: 'x' },
      'not an object',
      { provider: 'anthropic', model: 'claude-sonnet-4-5', label: 'Claude' },
      { provider: 'openai', baseUrl: 'https://user:pw@example.com/v1', model: 'm' },
    ]);
    assert.deepEqual(entries, [
      { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' },
      { provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', label: 'Claude' },
    ]);
    assert.equal(problems.length, 5);
    assert.match(problems[0]!, /^minagent\.chat\.models\[1\]\.model: a model name is required/);
    assert.match(problems[1]!, /^minagent\.chat\.models\[2\]\.baseUrl: must use https or http, not ftp/);
    assert.match(
      problems[2]!,
      /^minagent\.chat\.models\[3\]\.provider: must be one of openai, anthropic, scripted, not "gemini"/,
    );
    assert.match(problems[3]!, /^minagent\.chat\.models\[4\]: must be an object/);
    assert.match(problems[4]!, /^minagent\.chat\.models\[6\]\.baseUrl: must not carry a user name or password/);
  });

  test('not a list, nothing set, duplicates and scripted entries', () => {
    assert.deepEqual(parseModelList(undefined), { entries: [], problems: [] });
    assert.match(parseModelList({ provider: 'openai' }).problems[0]!, /^minagent\.chat\.models: must be a list/);
    const dup = parseModelList([
      { provider: 'openai', model: 'gpt-4o' },
      { provider: 'openai', baseUrl: 'https://api.openai.com/v1/', model: 'gpt-4o' },
    ]);
    assert.equal(dup.entries.length, 1);
    assert.match(dup.problems[0]!, /^minagent\.chat\.models\[1\]: the same model as minagent\.chat\.models\[0\]/);
    assert.match(parseModelList([{ provider: 'scripted' }]).problems[0]!, /^minagent\.chat\.models\[0\]\.scriptFile:/);
    assert.deepEqual(parseModelList([{ provider: 'scripted' }], { scriptFile: '/x.json' }).entries, [
      { provider: 'scripted' },
    ]);
  });

  test('labels and ids: the label, else model and host; identical entries share an id', () => {
    const [a] = parseModelList([{ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm' }]).entries;
    assert.equal(entryLabel(a!), 'm · localhost');
    assert.equal(entryId(a!), 'openai:m@http://127.0.0.1:8080/v1');
    assert.equal(entryLabel({ provider: 'openai', baseUrl: 'x', model: 'm', label: 'Mine' }), 'Mine');
  });

  test('issue 53: the picker names the model and a readable endpoint (the provider, or the host), never an ephemeral port as its text', () => {
    const label = (baseUrl: string, provider: 'openai' | 'anthropic' = 'openai') =>
      entryLabel({ provider, baseUrl, model: 'm' });
    assert.equal(label('http://127.0.0.1:40475/v1'), 'm · localhost');
    assert.equal(label('http://localhost:11434/v1'), 'm · Ollama');
    assert.equal(label('http://127.0.0.1:1234/v1'), 'm · LM Studio');
    assert.equal(label('http://[::1]:9000/v1'), 'm · localhost');
    assert.equal(label('https://api.openai.com/v1'), 'm · OpenAI');
    assert.equal(label('https://api.anthropic.com', 'anthropic'), 'm · Anthropic');
    assert.equal(label('https://openrouter.ai/api/v1'), 'm · OpenRouter');
    assert.equal(label('http://gpu-box.lan:8000/v1'), 'm · gpu-box.lan');
    assert.equal(label('not a url'), 'm · not a url');
    // Two entries that would read the same keep their addresses apart, after the readable name.
    const same = [
      { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:40475/v1', model: 'm' },
      { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:40476/v1', model: 'm' },
      { provider: 'openai' as const, baseUrl: 'https://api.openai.com/v1', model: 'm' },
      { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:1/v1', model: 'x', label: 'Mine' },
      { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:2/v1', model: 'y', label: 'Mine' },
    ];
    assert.deepEqual(entryLabels(same), [
      'm · localhost (127.0.0.1:40475)',
      'm · localhost (127.0.0.1:40476)',
      'm · OpenAI',
      'Mine',
      'Mine',
    ]);
  });
});

describe('adding and moving the old settings', () => {
  const ollama = { provider: 'openai' as const, baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' };

  test('withEntry appends, or reuses an identical entry (a trailing slash or the default URL is the same)', () => {
    const first = withEntry(undefined, ollama);
    assert.deepEqual(first, { list: [ollama], added: true });
    assert.deepEqual(withEntry([{ ...ollama, baseUrl: 'http://localhost:11434/v1/' }], ollama).added, false);
    assert.equal(
      withEntry([{ provider: 'openai', model: 'gpt-4o' }], {
        provider: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o',
      }).added,
      false,
    );
    // A broken entry (the user may be mid-edit) is kept as it is.
    assert.deepEqual(withEntry([{ provider: 'nope' }], ollama).list, [{ provider: 'nope' }, ollama]);
  });

  test('the old provider, baseUrl and model become one entry, once', () => {
    const legacy = { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'demo-model' };
    const existing = [ollama];
    const moved = migrateLegacy(existing, legacy);
    assert.deepEqual(moved, [ollama, { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'demo-model' }]);
    assert.equal(migrateLegacy(moved, legacy), undefined, 'a second run writes nothing');
    assert.deepEqual(migrateLegacy([], { provider: 'anthropic', model: 'claude' }), [
      { provider: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude' },
    ]);
    assert.deepEqual(migrateLegacy([], { provider: 'scripted' }), [{ provider: 'scripted' }]);
    for (const none of [
      {},
      { provider: 'vscode' },
      { provider: 'openai', model: '' },
      { provider: 'openai', baseUrl: 'not a url', model: 'm' },
    ])
      assert.equal(migrateLegacy([], none), undefined, JSON.stringify(none));
  });

  test('a selection stored by an older version (the provider name) means that provider’s first model', () => {
    const ids = ['workspace:openai:repo@http://r/v1', 'openai:a@http://a/v1', 'anthropic:c@https://api.anthropic.com'];
    assert.equal(upgradeSelection('openai', ids), 'workspace:openai:repo@http://r/v1');
    assert.equal(upgradeSelection('openai', ids.slice(1)), 'openai:a@http://a/v1');
    assert.equal(upgradeSelection('anthropic', ids), 'anthropic:c@https://api.anthropic.com');
    assert.equal(upgradeSelection('lm:copilot-gpt-4o', ids), 'lm:copilot-gpt-4o');
    assert.equal(upgradeSelection(undefined, ids), undefined);
  });
});
