// A server's CPU priority is the user's choice: by default it runs at the priority of the host that
// starts it (as the SDK's client starts it; at nice 10 a server on a busy machine missed its connect
// limit); with `minagent.serverPriority: "low"` it and its children run below the host, so thirty
// servers answering at once do not take the CPU from the extension host (bench/loopDelay.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { test } from 'node:test';
import { DEFAULT_HUB_SETTINGS, parseHubSettings } from '../../src/core/mcp/config/hubSettings';
import type { ConfigProblem } from '../../src/core/mcp/config/serverConfig';
import { McpToolSource } from '../../src/core/mcp/connection/source';
import { processTree } from '../../src/core/mcp/transport/processTree';
import { SERVER_NICE } from '../../src/core/mcp/transport/priority';
import { fixture, SERVERS, waitFor } from '../helpers';

test("by default a server and the child it starts (npx-style) run at the host's priority", async () => {
  assert.equal(DEFAULT_HUB_SETTINGS.serverPriority, 'normal');
  const hostNice = getPriority();
  const s = new McpToolSource(fixture('wrapped', 'wrapper.mjs', [`${SERVERS}/research.mjs`]));
  try {
    await s.connect();
    const tree = [...(await processTree(s.pid!))];
    assert.equal(tree.length, 2, 'the wrapper and its server');
    for (const pid of tree) assert.equal(getPriority(pid), hostNice, `process ${pid}`);
    if (existsSync('/proc/self/autogroup')) {
      // A process outside any autogroup (CI runs the tests so) reads an empty file: it schedules as nice 0.
      const groupNice = (pid: number | 'self') =>
        Number(/nice (-?\d+)$/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim())?.[1] ?? 0);
      for (const pid of tree) assert.equal(groupNice(pid), groupNice('self'), `the scheduling group of ${pid}`);
    }
  } finally {
    await s.close();
  }
});

test('with serverPriority "low": nice 10, in a scheduling group at nice 10; the host keeps its own', async () => {
  const problems: ConfigProblem[] = [];
  assert.equal(parseHubSettings((k) => (k === 'serverPriority' ? 'low' : undefined), problems).serverPriority, 'low');
  assert.equal(
    parseHubSettings((k) => (k === 'serverPriority' ? 'lowest' : undefined), problems).serverPriority,
    'normal',
  );
  assert.deepEqual(
    problems.map((p) => `${p.field}: ${p.message}`),
    ['minagent.serverPriority: must be one of normal, low; using "normal"'],
  );
  const hostNice = getPriority();
  const s = new McpToolSource(fixture('wrapped', 'wrapper.mjs', [`${SERVERS}/research.mjs`]), {
    serverPriority: 'low',
  });
  try {
    await s.connect();
    const tree = [...(await processTree(s.pid!))];
    assert.equal(tree.length, 2, 'the wrapper and its server');
    for (const pid of tree) assert.equal(getPriority(pid), SERVER_NICE, `process ${pid}`);
    assert.equal(SERVER_NICE, 10);
    assert.equal(getPriority(), hostNice, 'the host is not lowered');
    // Linux with autogroup scheduling: the server's session is a group of its own; its nice is what counts against the
    // editor.
    if (existsSync('/proc/self/autogroup')) {
      for (const pid of tree)
        await waitFor(`the scheduling group of ${pid} at nice 10`, () =>
          /nice 10$/.test(readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim()),
        );
      assert.doesNotMatch(
        readFileSync('/proc/self/autogroup', 'utf8'),
        /nice 10$/m,
        "the host's own group is not lowered",
      );
    }
    assert.equal(await s.call('echo', { text: 'still answers' }), 'still answers');
  } finally {
    await s.close();
  }
});

test('with serverPriority "low", a command that is not there still fails as itself, named (not as nice exiting)', async () => {
  const s = new McpToolSource(
    { ...fixture('gone', 'research.mjs'), command: 'no-such-mcp-server' },
    { serverPriority: 'low' },
  );
  try {
    await assert.rejects(s.connect(), /command not found: "no-such-mcp-server" \(spawn ENOENT/);
  } finally {
    await s.close();
  }
});
