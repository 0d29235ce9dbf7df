// The CLI reads the MCP files the editor reads: a folder with only `.mcp.json` is a project; `.vscode/mcp.json`,
// `.mcp.json` and `.github/mcp.json` start under the folder's trust, each named as its source; Copilot's file starts
// only once confirmed on a terminal (or with --trust for one run), and its autoApprove counts only with "a".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { onTerminal } from '../pty';
import { ROOT, SERVERS } from '../helpers';

const CLI = join(ROOT, 'dist', 'cli.js');
const work = mkdtempSync(join(tmpdir(), 'minagent-cli-files-'));
after(() => rmSync(work, { recursive: true, force: true }));

const copilotHome = join(work, 'copilot');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: join(work, 'home'),
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_CACHE_HOME: join(work, 'cache'),
  COPILOT_HOME: copilotHome,
};
delete env.MINAGENT_TRUST;

const server = (file: string, ...args: string[]) => ({ command: 'node', args: [join(SERVERS, file), ...args] });
const write = (path: string, value: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
};

/** A folder with no settings file: only the three MCP files, one name defined twice. */
const folder = join(work, 'project');
write(join(folder, '.vscode', 'mcp.json'), { servers: { fromvscode: server('analytics.mjs') } });
write(join(folder, '.mcp.json'), { mcpServers: { portable: { type: 'local', ...server('faulty.mjs', 'ok') } } });
write(join(folder, '.github', 'mcp.json'), {
  mcpServers: { fromgithub: server('research.mjs'), fromvscode: server('research.mjs') },
});
write(join(copilotHome, 'mcp-config.json'), {
  mcpServers: { copilot: { ...server('research.mjs'), tools: ['search_corpus'], autoApprove: ['search_corpus'] } },
});

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: folder,
    env,
    encoding: 'utf8',
    timeout: 90_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the CLI reads the MCP files', () => {
  test("a folder with only MCP files is a project; another tool's file waits without a terminal", async () => {
    const r = cli(['servers', '--trust']);
    assert.equal(r.code, 0, r.err);
    const row = (name: string) => r.out.split('\n').find((l) => l.startsWith(`${name}\t`)) ?? '';
    assert.match(row('fromvscode'), /running\t.*from \.vscode\/mcp\.json; also in \.github\/mcp\.json, not used/);
    assert.match(row('portable'), /running\t.*from \.mcp\.json/);
    assert.match(row('fromgithub'), /running\t.*from \.github\/mcp\.json/);
    // --trust starts another tool's file for this run too, without its pre-approvals.
    assert.match(row('copilot'), /running\t.*from \$COPILOT_HOME\/mcp-config\.json/);
    assert.match(r.err, /server "copilot", field "autoApprove": from \$COPILOT_HOME\/mcp-config\.json does not count/);

    // On a terminal: Copilot's file refused, the folder trusted (its question lists the MCP files' servers): the
    // folder's servers start from then on without a terminal, and that file's server does not, saying why.
    const asked = await onTerminal(
      [process.execPath, CLI, 'servers'],
      [
        ['[y/a(pprovals too)/N]: ', 'n'],
        ['and start its servers? (remembered for this folder) [y/N]: ', 'y'],
      ],
      { cwd: folder, env },
    );
    assert.match(asked, /portable \(\.mcp\.json\): node /);
    const again = cli(['servers']);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /^portable\trunning/m);
    assert.doesNotMatch(again.out, /^copilot\t/m);
    assert.match(
      again.err,
      /\$COPILOT_HOME\/mcp-config\.json: copilot not started: another tool's file starts once you confirm it/,
    );
  });

  test('attack: a server rewrites .mcp.json after the folder was trusted: its servers wait, without a terminal too', () => {
    write(join(folder, '.mcp.json'), {
      mcpServers: { portable: { type: 'local', ...server('faulty.mjs', 'ok') }, planted: server('research.mjs') },
    });
    const r = cli(['servers']);
    assert.doesNotMatch(r.out, /^planted\t/m);
    assert.doesNotMatch(r.out, /^portable\t/m, 'the whole changed file waits');
    assert.match(r.out, /^fromgithub\trunning/m, "the other files' servers run");
    assert.match(r.err, /\.mcp\.json: portable, planted not started: the file changed since you trusted this folder/);
  });

  test('confirmed on a terminal with "a": it starts, its tools list holds, and its autoApprove counts', async () => {
    const shown = await onTerminal(
      [process.execPath, CLI, 'tools'],
      [
        ['(remembered for this content of the file) [y/N]: ', 'y'],
        ['[y/a(pprovals too)/N]: ', 'a'],
      ],
      { cwd: folder, env },
    );
    assert.match(shown, /\.mcp\.json changed since you trusted this folder/);
    assert.match(shown, /copilot: node .*research\.mjs/);
    assert.match(shown, /autoApprove \["search_corpus"\]/);
    const confirmed = JSON.parse(readFileSync(join(work, 'config', 'minagent', 'confirmed-files.json'), 'utf8'));
    assert.ok(confirmed[join(copilotHome, 'mcp-config.json')], 'remembered for the file');
    // Remembered: no question now, and the tools list of the entry keeps the server's other tools from the model.
    const r = cli(['tools', '--json']);
    const tools = (JSON.parse(r.out) as { tools: { name: string; server: string; offeredToModel: boolean }[] }).tools;
    const mine = tools.filter((t) => t.server === 'copilot');
    assert.ok(mine.length > 1, r.err);
    assert.deepEqual(
      mine.filter((t) => t.offeredToModel).map((t) => t.name),
      ['copilot.search_corpus'],
    );
    assert.doesNotMatch(r.err, /does not count/);
  });
});
