// `npm run compat`: the compatibility suite (test/compat). Installs the pinned third-party servers
// of compat/package.json (install scripts off: none of them needs one to serve), builds the CLI and
// compares what it sees of each server with what the SDK's client sees. CI runs it after `npm test`.
import { ensureNodeModules, run, TEST_FLAGS } from './setup.mjs';

ensureNodeModules();
ensureNodeModules('compat', ['--ignore-scripts']);
// The database server of the suite (dbhub) opens SQLite with Node's own node:sqlite (Node 22.5 and
// later): it runs on the Node 24 of the e2e cache, installed here when missing (as npm test does).
const { ensureE2e } = await import('./e2e-setup.mjs');
const left = (await ensureE2e({ browser: false })).filter((m) => /Node 24/.test(m));
if (left.length) console.error(`npm run compat: ${left.join('; ')}`);
const started = Date.now();
let status = run(process.execPath, ['scripts/build.mjs']);
// The servers compared are the user's own (as the SDK's client runs them): no sandbox.
// Without NODE_EXTRA_CA_CERTS, as in `npm test` (scripts/test.mjs says why): nothing here downloads.
const { NODE_EXTRA_CA_CERTS: _machineCas, ...env } = process.env;
if (status === 0)
  status = run(process.execPath, [...TEST_FLAGS, 'scripts/testFiles.mjs', 'test/compat/compat.test.ts'], {
    env: { ...env, MINAGENT_SANDBOX_WORKSPACE_SERVERS: 'off' },
  });
console.error(
  `npm run compat: ${status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(status);
