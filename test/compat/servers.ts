// The third-party MCP servers of the compatibility suite (pinned in compat/package.json), with how
// to start each one over stdio and, where it offers it, Streamable HTTP, and one call that works
// offline (where every tool needs the network, the call's offline failure is what is compared).
import { join } from 'node:path';
import { ROOT } from '../helpers';

export const COMPAT_MODULES = join(ROOT, 'compat', 'node_modules');

export interface CompatServer {
  /** The settings key, and the test's name. */
  name: string;
  /** Package and the file its `bin` runs, in compat/node_modules. */
  pkg: string;
  bin: string;
  args?: string[];
  env?: Record<string, string>;
  /**
   * A call both clients make; `{repo}` in a string argument is the test's git repository. `expect`: what its text shows
   * (so the call did reach the server).
   */
  call: { tool: string; args: Record<string, unknown>; expect: RegExp };
  /**
   * In the default sandbox (a workspace's server, its folder as cwd): `skip` says why it cannot run
   * there yet; `expect` replaces the call's expectation where the sandbox changes its answer.
   */
  sandbox?: { skip?: string; expect?: RegExp };
  /** Streamable HTTP: the arguments and environment that serve it on `port`, and the URL's host and path. */
  http?: {
    args?: (port: number) => string[];
    env?: (port: number) => Record<string, string>;
    host?: string;
    path: string;
    headers?: Record<string, string>;
  };
}

export const COMPAT_SERVERS: CompatServer[] = [
  {
    name: 'git',
    pkg: '@cyanheads/git-mcp-server',
    bin: 'dist/index.js',
    call: { tool: 'git_status', args: { path: '{repo}' }, expect: /"isClean": true/ },
    http: {
      env: (port) => ({ MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: String(port), MCP_HTTP_HOST: '127.0.0.1' }),
      path: '/mcp',
    },
  },
  {
    name: 'playwright',
    pkg: '@playwright/mcp',
    bin: 'cli.js',
    call: { tool: 'browser_close', args: {}, expect: /chrom/i },
    // It answers only requests addressed to localhost.
    http: { args: (port) => ['--port', String(port), '--host', '127.0.0.1'], host: 'localhost', path: '/mcp' },
  },
  {
    name: 'devtools',
    pkg: 'chrome-devtools-mcp',
    bin: 'build/src/bin/chrome-devtools-mcp.js',
    args: ['--headless', '--isolated'],
    call: { tool: 'list_pages', args: {}, expect: /Chrome/ },
    sandbox: {
      skip: "Chrome aborts in the sandbox: its single-instance check creates a Unix socket, which the sandbox's seccomp filter refuses (issue 50, not done)",
    },
  },
  {
    name: 'eslint',
    pkg: '@eslint/mcp',
    bin: 'src/mcp-cli.js',
    call: { tool: 'lint-files', args: { filePaths: ['{work}/lint/bad.js'] }, expect: /no-unused-vars/ },
  },
  {
    name: 'context7',
    pkg: '@upstash/context7-mcp',
    bin: 'dist/index.js',
    call: {
      tool: 'resolve-library-id',
      args: { libraryName: 'react', query: 'hooks' },
      expect: /Error searching libraries/,
    },
    http: { args: (port) => ['--transport', 'http', '--port', String(port)], path: '/mcp' },
  },
  {
    name: 'notion',
    pkg: '@notionhq/notion-mcp-server',
    bin: 'bin/cli.mjs',
    call: { tool: 'API-get-self', args: {}, expect: /notion/i },
    // Its API is no host the sandbox lets it reach: the sandbox's proxy says so.
    sandbox: { expect: /Connection blocked by network allowlist/ },
    http: {
      args: (port) => ['--transport', 'http', '--port', String(port), '--auth-token', 'compat-token'],
      path: '/mcp',
      headers: { Authorization: 'Bearer compat-token' },
    },
  },
  {
    name: 'figma',
    pkg: 'figma-developer-mcp',
    bin: 'dist/bin.js',
    args: ['--stdio'],
    env: { FIGMA_API_KEY: 'compat-key' },
    call: { tool: 'get_figma_data', args: { fileKey: 'abc' }, expect: /Figma API/ },
    http: { args: (port) => ['--port', String(port)], path: '/mcp' },
  },
  {
    name: 'brave',
    pkg: '@brave/brave-search-mcp-server',
    bin: 'dist/index.js',
    env: { BRAVE_API_KEY: 'compat-key' },
    call: { tool: 'brave_web_search', args: { query: 'mcp' }, expect: /fetch failed|brave/i },
    http: { args: (port) => ['--transport', 'http', '--port', String(port), '--host', '127.0.0.1'], path: '/mcp' },
  },
  {
    name: 'chart',
    pkg: '@antv/mcp-server-chart',
    bin: 'build/index.js',
    call: { tool: 'generate_pie_chart', args: { data: [{ category: 'a', value: 1 }] }, expect: /chart/i },
    http: {
      args: (port) => ['--transport', 'streamable', '--port', String(port), '--host', '127.0.0.1'],
      path: '/mcp',
    },
  },
  {
    name: 'runner',
    pkg: 'mcp-server-code-runner',
    bin: 'dist/cli.js',
    call: { tool: 'run-code', args: { languageId: 'javascript', code: 'console.log(6 * 7)' }, expect: /^42$/m },
  },
  {
    name: 'tavily',
    pkg: 'tavily-mcp',
    bin: 'build/index.js',
    env: { TAVILY_API_KEY: 'compat-key' },
    call: { tool: 'tavily_search', args: { query: 'mcp' }, expect: /Tavily/ },
  },
  {
    name: 'fetch',
    pkg: '@kazuph/mcp-fetch',
    bin: 'dist/index.js',
    call: { tool: 'imageFetch', args: { url: 'http://127.0.0.1:1/' }, expect: /Blocked URL/ },
  },
];

/** The file a server's `bin` runs. */
export function entryOf(server: CompatServer): string {
  return join(COMPAT_MODULES, server.pkg, server.bin);
}

/** The Node 24 of the e2e cache (scripts/e2e-paths.cjs), for a server that needs Node 22.5 or later. */
export function node24(): string {
  const { paths } = require('../../scripts/e2e-paths.cjs') as { paths: { node24Bin: string } };
  return join(paths.node24Bin, 'node');
}
