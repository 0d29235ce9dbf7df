// A search_tools card shows what the search loaded by the names the user knows, not its JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchCardLines } from '../../src/core/toolSearch/searchCard';

const names: Record<string, string> = { analytics__echo: 'analytics.echo', echo: 'echo' };
const nameOf = (wire: string) => names[wire];

test("a search's card lists each loaded tool by its registry name and server, then what it unloaded", () => {
  const result = JSON.stringify({
    loaded: [
      { name: 'analytics__echo', server: 'analytics', description: 'Echo the text back.' },
      { name: 'echo', server: 'research', description: '' },
    ],
    unloaded: ['analytics__echo'],
    note: 'x',
  });
  assert.deepEqual(searchCardLines({ wireName: 'search_tools', result, status: 'ok' }, nameOf), [
    'analytics.echo (analytics) — Echo the text back.',
    'echo (research)',
    'Unloaded to make room: analytics.echo',
  ]);
});

test('nothing found says the note; a failed search, another tool or text that is not the result show as before', () => {
  assert.deepEqual(
    searchCardLines(
      {
        wireName: 'search_tools',
        result: JSON.stringify({ loaded: [], note: 'No enabled tool matches "zzz".' }),
        status: 'ok',
      },
      nameOf,
    ),
    ['No enabled tool matches "zzz".'],
  );
  assert.equal(
    searchCardLines({ wireName: 'search_tools', result: '{"error":"x"}', status: 'error' }, nameOf),
    undefined,
  );
  assert.equal(
    searchCardLines({ wireName: 'echo', result: JSON.stringify({ loaded: [] }), status: 'ok' }, nameOf),
    undefined,
  );
  assert.equal(searchCardLines({ wireName: 'search_tools', result: 'not json', status: 'ok' }, nameOf), undefined);
});
