// Servers run below the host that starts them: a busy server, or thirty answering at once, must not
// take the CPU from the extension host (bench/loopDelay.ts measures what that is worth).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { test } from 'node:test';
import { McpToolSource } from '../../src/core/mcp/source';
import { processTree } from '../../src/core/mcp/transport/processTree';
import { SERVER_NICE } from '../../src/core/mcp/transport/priority';
import { fixture, SERVERS, waitFor } from '../helpers';

test('a server and the child it starts (npx-style) run at nice 10, in a scheduling group at nice 10; the host keeps its own', async () => {
  const hostNice = getPriority();
  const s = new McpToolSource(fixture('wrapped', 'wrapper.mjs', [`${SERVERS}/research.mjs`]));
  try {
    await s.connect();
    const tree = [...(await processTree(s.pid!))];
    assert.equal(tree.length, 2, 'the wrapper and its server');
    for (const pid of tree) assert.equal(getPriority(pid), SERVER_NICE, `process ${pid}`);
    assert.equal(SERVER_NICE, 10);
    assert.equal(getPriority(), hostNice, 'the host is not lowered');
    // Linux with autogroup scheduling: the server's session is a group of its own; its nice is what counts against the editor.
    if (existsSync('/proc/self/autogroup')) {
      for (const pid of tree) await waitFor(`the scheduling group of ${pid} at nice 10`, () => /nice 10$/.test(readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim()));
      assert.doesNotMatch(readFileSync('/proc/self/autogroup', 'utf8'), /nice 10$/m, "the host's own group is not lowered");
    }
    assert.equal(await s.call('echo', { text: 'still answers' }), 'still answers');
  } finally {
    await s.close();
  }
});
