// Set Up a Model (issue 53 item 13): a second run offers the Base URL the user gave before, from their
// own settings or their last run, never a workspace's and never Ollama's default over theirs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelEntry } from '../../src/core/models/modelList';
import { entryId } from '../../src/core/models/modelList';
import { setupBaseUrl } from '../../src/core/models/modelSetup';

const mock: ModelEntry = { provider: 'openai', baseUrl: 'http://127.0.0.1:40475/v1', model: 'mock-model' };
const lan: ModelEntry = { provider: 'openai', baseUrl: 'http://gpu-box.lan:8000/v1', model: 'llama' };
const claude: ModelEntry = { provider: 'anthropic', baseUrl: 'https://proxy.example/anthropic', model: 'claude' };

test('a first run offers the usual start: Ollama for OpenAI-compatible, the vendor for Anthropic', () => {
  assert.equal(setupBaseUrl('openai', { entries: [] }), 'http://localhost:11434/v1');
  assert.equal(setupBaseUrl('anthropic', { entries: [] }), 'https://api.anthropic.com');
});

test("a second run offers the user's own: the selected model's URL, else the one added last; per provider", () => {
  assert.equal(setupBaseUrl('openai', { entries: [mock] }), mock.baseUrl, 'the model the first run added');
  assert.equal(setupBaseUrl('openai', { entries: [mock, lan] }), lan.baseUrl, 'the last added');
  assert.equal(
    setupBaseUrl('openai', { entries: [mock, lan], selectedId: entryId(mock) }),
    mock.baseUrl,
    'the selected one first',
  );
  assert.equal(
    setupBaseUrl('openai', { entries: [mock, claude], selectedId: entryId(claude) }),
    mock.baseUrl,
    "another provider's selection is not this one's",
  );
  assert.equal(setupBaseUrl('anthropic', { entries: [mock, claude] }), claude.baseUrl);
});

test('what the user typed in a run they left (the endpoint did not answer) is offered again first', () => {
  assert.equal(
    setupBaseUrl('openai', { entries: [mock], typedBefore: 'http://127.0.0.1:9999/v1' }),
    'http://127.0.0.1:9999/v1',
  );
  assert.equal(
    setupBaseUrl('openai', { entries: [mock], typedBefore: 'not a url' }),
    mock.baseUrl,
    'a value that is no URL is not offered',
  );
});

test("a workspace's model is not the user's: its id selected, it is not offered", () => {
  // The extension passes only the user's list; a selection of the workspace's entry names none of it.
  assert.equal(
    setupBaseUrl('openai', { entries: [], selectedId: `workspace:${entryId(lan)}` }),
    'http://localhost:11434/v1',
  );
});
