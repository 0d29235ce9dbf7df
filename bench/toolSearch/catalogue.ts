// The tool-search benchmark's catalogue: real MCP servers from npm that list their tools offline
// (the three reference servers of the suite, and third-party ones from bench/servers, installed on
// first use so the test suite's install stays light). Each runs with a throwaway HOME and dummy
// tokens: listing tools needs no account, and nothing here calls a tool. Beside them, lookalike servers
// (fixtures/servers/lookalikes.mjs) that only the adversarial tuning cases add.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../src/core/mcp/config/serverConfig';
import { fixture, reference, ROOT } from '../../test/helpers';

const SERVERS = join(ROOT, 'bench', 'servers');

/** Installs bench/servers from its lock file when its packages are missing. */
export function installCatalogue(): void {
  if (existsSync(join(SERVERS, 'node_modules', '.package-lock.json'))) return;
  console.log('tool search: installing the catalogue servers (bench/servers, once)');
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: SERVERS, stdio: 'inherit' });
}

const thirdParty: Array<{ name: string; bin: string; args?: string[]; env?: Record<string, string> }> = [
  { name: 'github', bin: '@modelcontextprotocol/server-github/dist/index.js' },
  { name: 'gitlab', bin: '@zereight/mcp-gitlab/build/index.js', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' } },
  { name: 'git', bin: '@cyanheads/git-mcp-server/dist/index.js' },
  { name: 'notion', bin: '@notionhq/notion-mcp-server/bin/cli.mjs' },
  { name: 'playwright', bin: '@playwright/mcp/cli.js', args: ['--headless'] },
  { name: 'todoist', bin: 'todoist-mcp/dist/index.js', env: { API_KEY: 'dummy' } },
  { name: 'time', bin: 'time-mcp/dist/index.js' },
];

/** Every catalogue server as a stdio entry, in a fixed order (registry names depend on it). */
export function catalogue(): ServerConfig[] {
  installCatalogue();
  const home = mkdtempSync(join(tmpdir(), 'minagent-bench-home-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
  return [
    reference('everything', 'server-everything', [], env),
    reference('filesystem', 'server-filesystem', [home], env),
    reference('memory', 'server-memory', [], { ...env, MEMORY_FILE_PATH: join(home, 'memory.json') }),
    ...thirdParty.map(
      ({ name, bin, args = [], env: own = {} }): ServerConfig => ({
        name,
        type: 'stdio',
        command: process.execPath,
        args: [join(SERVERS, 'node_modules', bin), ...args],
        env: { ...env, ...own },
        cwd: home,
        autoApprove: [],
      }),
    ),
  ];
}

/**
 * The servers a query of queries.json adds by its `with` (each ranked over the catalogue and those):
 * `words`, tools named after a query's words, and `eslint`, a linter's lint-files.
 */
export function lookalikes(): ServerConfig[] {
  return [fixture('words', 'lookalikes.mjs', ['words']), fixture('eslint', 'lookalikes.mjs', ['eslint'])];
}
