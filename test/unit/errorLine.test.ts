import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { explainingLine, isErrorLine, stderrGist, summarizeError } from '../../src/core/mcp/connection/errorLine';

// What Node 20 prints for `node missing.mjs`, as the issue saw it in the tree.
const NODE_MISSING_MODULE = `node:internal/modules/cjs/loader:1228
  throw err;
  ^

Error: Cannot find module '/work/demo/servers/missing.mjs'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)
    at Module._load (node:internal/modules/cjs/loader:1051:27)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2`;

const PYTHON_TRACEBACK = `Traceback (most recent call last):
  File "/srv/server.py", line 3, in <module>
    import mcp_server_x
ModuleNotFoundError: No module named 'mcp_server_x'`;

describe('the line that explains a server error', () => {
  test("Node's missing module: the Error line, not the stack, the brace or the version", () => {
    assert.equal(explainingLine(NODE_MISSING_MODULE), "Error: Cannot find module '/work/demo/servers/missing.mjs'");
    const s = summarizeError(
      `server process exited with code 1 during startup; stderr: } |  | Node.js v20.20.2`,
      NODE_MISSING_MODULE,
    );
    assert.deepEqual(s, {
      line: "Error: Cannot find module '/work/demo/servers/missing.mjs'",
      status: 'exited with code 1 during startup',
    });
  });

  test("Python's traceback: the exception line, not the Traceback header", () => {
    assert.equal(explainingLine(PYTHON_TRACEBACK), "ModuleNotFoundError: No module named 'mcp_server_x'");
  });

  test('no line matches: the last non-empty line', () => {
    assert.equal(explainingLine('starting up\nlistening on stdio\n\n'), 'listening on stdio');
    assert.equal(explainingLine(''), undefined);
  });

  test("no stderr: the message itself, with a spawn failure's PATH left to the log", () => {
    const enoent =
      'command not found: "nosuchcmd" (spawn ENOENT; cwd /work/demo; PATH=/usr/local/bin:/usr/bin:/bin:/opt/a:/opt/b)';
    assert.deepEqual(summarizeError(enoent, ''), {
      line: 'command not found: "nosuchcmd" (spawn ENOENT; cwd /work/demo)',
    });
    assert.deepEqual(summarizeError('did not answer initialize within 30000 ms', ''), {
      line: 'did not answer initialize within 30000 ms',
    });
  });

  test('a failure\'s message carries the line that explains it, never the tail of a crash dump ("} | | Node.js v20.20.2")', () => {
    assert.match(stderrGist(NODE_MISSING_MODULE), /^Error: Cannot find module /);
    assert.doesNotMatch(stderrGist(NODE_MISSING_MODULE), /Node\.js v|^\}/);
    assert.equal(stderrGist('fatal: not a git repository\n'), 'fatal: not a git repository');
    assert.equal(
      stderrGist('starting\nloading config\nwaiting\n}\n\nNode.js v20.20.2\n'),
      'starting | loading config | waiting',
    );
    assert.equal(stderrGist(''), '');
  });

  test('stderr lines that report errors are told from ordinary ones', () => {
    assert.ok(isErrorLine('fatal: FIXTURE_API_KEY is not set'));
    assert.ok(isErrorLine('Error: listen EADDRINUSE: address already in use'));
    assert.ok(!isErrorLine('    at Module._load (node:internal/modules/cjs/loader:1051:27)'));
    assert.ok(!isErrorLine('server listening on stdio'));
  });
});
