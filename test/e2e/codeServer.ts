// Runs code-server (VS Code in the browser) on a fresh profile and workspace, with the packaged
// extension installed, per ../shared/E2E-RECIPE.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSettingsText } from '../../src/core/base/jsonc';
import { builtOnce } from '../builtOnce';
import { freePort, ROOT, SERVERS, waitFor } from '../helpers';

// Where scripts/e2e-setup.mjs installed Node 24 and code-server.
const { paths } = require('../../scripts/e2e-paths.cjs') as { paths: { node24Bin: string; codeServer: string } };

export const VSIX = join(ROOT, 'minagent.vsix');

/** What the extension writes of its servers for the e2e suite (MINAGENT_TEST_REPORT, src/extension/testReport.ts). */
export interface ServerReport {
  servers: Array<{ name: string; state: string; pid?: number; tree: number[]; origin?: string; sandboxed: boolean }>;
  tools: string[];
  /** Every process id that was ever part of a server's process tree. */
  everSeenPids: number[];
}

export interface CodeServer {
  url: string;
  env: Record<string, string>;
  workspace: string;
  reportFile: string;
  dir: string;
  /**
   * The extension's latest report, or undefined before its first (a package built without MINAGENT_SERVER_REPORT never
   * writes one).
   */
  report(): ServerReport | undefined;
  stop(): Promise<void>;
  /** What the extension wrote to its "MinAgent" log channel so far (the file VS Code keeps for it). */
  minagentLog(): string;
  /**
   * A settings file (the profile's or the workspace's) as text once it reads whole: VS Code truncates it before
   * it writes it, and a read between the two finds an empty file.
   */
  settingsText(scope: 'user' | 'workspace'): Promise<string>;
  /** The same file, parsed (JSONC). */
  settings(scope: 'user' | 'workspace'): Promise<Record<string, unknown>>;
}

export interface CodeServerOptions {
  /** A folder under fixtures/workspaces, copied fresh for this run (or opened where it is, with `inPlace`). */
  workspace: string;
  /** Open the fixture workspace itself, as `npm run demo` does (for tests that never write to it). */
  inPlace?: boolean;
  userSettings?: Record<string, unknown>;
  trust?: boolean;
  env?: Record<string, string>;
  /** Replaces the workspace's .vscode/settings.json (for generated configurations). */
  workspaceSettings?: Record<string, unknown>;
  /** More files of the workspace (path relative to it: JSON content), e.g. `.vscode/mcp.json`. */
  workspaceFiles?: Record<string, unknown>;
  /** Files of the user's home folder (path relative to it: JSON content), e.g. `.copilot/mcp-config.json`. */
  homeFiles?: Record<string, unknown>;
  /** Files of the editor's user folder, beside its settings.json (name: JSON content), e.g. `mcp.json`. */
  userFiles?: Record<string, unknown>;
  /** A file of the workspace to open instead of its folder: a multi-root workspace's `.code-workspace`. */
  openFile?: string;
  /** Folders under fixtures/extensions to install beside MinAgent (test-only extensions). */
  extensions?: string[];
  /**
   * A command that runs code-server (its program and arguments follow), as a container or a wrapper would: e.g.
   * `unshare` to put it where user namespaces are not allowed.
   */
  launcher?: string[];
}

/**
 * The vsix installed by code-server's own installer once per build of it (2-3 s each time), in a
 * folder under node_modules/.cache keyed by the file's size and time (test/builtOnce.ts); every test
 * copies that.
 */
function installedVsix(node: string, env: Record<string, string>): string {
  const stat = statSync(VSIX);
  const key = createHash('sha256').update(`${stat.size}:${stat.mtimeMs}`).digest('hex').slice(0, 16);
  const done = builtOnce(
    join(ROOT, 'node_modules', '.cache', 'minagent-e2e-vsix'),
    key,
    join('extensions', 'extensions.json'),
    (staging) => {
      const install = spawnSync(
        node,
        [
          paths.codeServer,
          '--user-data-dir',
          join(staging, 'user-data'),
          '--extensions-dir',
          join(staging, 'extensions'),
          '--install-extension',
          VSIX,
          '--force',
        ],
        { env, encoding: 'utf8' },
      );
      if (install.status !== 0) throw new Error(`installing the vsix failed: ${install.stderr || install.stdout}`);
      // extensions.json names the folder it was installed in: kept as written, rewritten on each copy.
      writeFileSync(join(staging, 'extensions', 'installed-in'), join(staging, 'extensions'));
    },
  );
  return join(done, 'extensions');
}

/**
 * Copies the installed extension into `extensions`; returns its manifest's entries, pointed there as if installed
 * there.
 */
function copyInstalled(from: string, extensions: string): unknown[] {
  const installedIn = readFileSync(join(from, 'installed-in'), 'utf8');
  for (const entry of readdirSync(from))
    if (entry !== 'extensions.json' && entry !== 'installed-in')
      cpSync(join(from, entry), join(extensions, entry), { recursive: true });
  return JSON.parse(
    readFileSync(join(from, 'extensions.json'), 'utf8').split(installedIn).join(extensions),
  ) as unknown[];
}

/**
 * No start page or trust prompt, and no port auto-forwarding: its scanner reads every process's
 * /proc entries and runs `ls`/`ps` every few seconds (more with more servers running), costs that
 * landed at random in the timed windows of the tree benchmark and would pop up notices in tests.
 * Nothing else that works on its own at startup (git, npm script detection, update checks,
 * VS Code's own Chat beside the editor) or animates: each editor the suite opens costs CPU that the
 * tests running beside it need.
 */
export const QUIET_EDITOR: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.startupPrompt': 'never',
  'remote.autoForwardPorts': false,
  // ...which alone does not stop that scanner under code-server (it offers port forwarding itself, and VS Code
  // scans whenever a tunnel provider is there); ports taken from terminal output only do. Measured on an idle
  // demo window, 60 s: the extension host and the ls/ps it ran 3.46-3.74 CPU-s against 0.17-0.20 (two each).
  'remote.autoForwardPortsSource': 'output',
  'workbench.reduceMotion': 'on',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.autoDetect': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  // The suites' workspace servers run as the user's own, as in the other suites (MINAGENT_SANDBOX_WORKSPACE_SERVERS
  // in scripts/test.mjs); the sandbox's own tests turn it on.
  'minagent.sandbox.workspaceServers': 'off',
  // VS Code's own AI features (its Chat and the agent host process it starts), the minimap, breadcrumbs, tips,
  // recommendations and telemetry: measured on the smallest e2e test, 3.5 CPU-seconds of 34 less per editor
  // (three alternating runs each); the fake language model extension's chat test passes with them off.
  'chat.disableAIFeatures': true,
  'editor.minimap.enabled': false,
  'workbench.tips.enabled': false,
  'breadcrumbs.enabled': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
};

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'minagent-e2e-'));
  const userData = join(dir, 'user-data');
  const extensions = join(dir, 'extensions');
  const workspace = options.inPlace ? join(ROOT, 'fixtures', 'workspaces', options.workspace) : join(dir, 'workspace');
  const home = join(dir, 'home');
  for (const d of [userData, extensions, home, join(dir, 'tmp'), join(userData, 'User')])
    mkdirSync(d, { recursive: true });
  if (!options.inPlace) cpSync(join(ROOT, 'fixtures', 'workspaces', options.workspace), workspace, { recursive: true });
  if (options.workspaceSettings)
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify(options.workspaceSettings, null, 2));
  const files = [
    [workspace, options.workspaceFiles],
    [home, options.homeFiles],
    [join(userData, 'User'), options.userFiles],
  ] as const;
  for (const [base, more] of files)
    for (const [file, content] of Object.entries(more ?? {})) {
      mkdirSync(dirname(join(base, file)), { recursive: true });
      writeFileSync(join(base, file), JSON.stringify(content, null, 2));
    }
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_EDITOR, ...options.userSettings }, null, 2),
  );
  const reportFile = join(dir, 'report.json');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${paths.node24Bin}:${process.env.PATH}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TMPDIR: join(dir, 'tmp'),
    MINAGENT_FIXTURES: SERVERS,
    MINAGENT_TEST_REPORT: reportFile,
    ...options.env,
  };
  const node = join(paths.node24Bin, 'node');
  const installed = copyInstalled(installedVsix(node, env), extensions);
  for (const ext of options.extensions ?? []) {
    const from = join(ROOT, 'fixtures', 'extensions', ext);
    const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    const folder = `${manifest.publisher}.${manifest.name}-${manifest.version}`;
    cpSync(from, join(extensions, folder), { recursive: true });
    // VS Code loads only the extensions its manifest lists (a folder beside them is ignored).
    const location = join(extensions, folder);
    installed.push({
      identifier: { id: `${manifest.publisher}.${manifest.name}` },
      version: manifest.version,
      location: { $mid: 1, fsPath: location, external: pathToFileURL(location).href, path: location, scheme: 'file' },
      relativeLocation: folder,
    });
  }
  writeFileSync(join(extensions, 'extensions.json'), JSON.stringify(installed));

  const port = await freePort();
  const args = [
    paths.codeServer,
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensions,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (options.trust !== false) args.push('--disable-workspace-trust');
  // A multi-root workspace opens through its .code-workspace file.
  args.push(options.openFile ? join(workspace, options.openFile) : workspace);
  // Started in the workspace, as `code .` in a terminal starts VS Code: the extension host's working
  // directory is then the user's folder (the sandbox must leave nothing of its own there).
  const [program, ...before] = options.launcher ?? [];
  const child: ChildProcess = spawn(program ?? node, program ? [...before, node, ...args] : args, {
    cwd: workspace,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('HTTP server listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout!.removeAllListeners('data');
  child.stderr!.removeAllListeners('data');
  child.stdout!.resume();
  child.stderr!.resume();

  const settingsFile = (scope: 'user' | 'workspace') =>
    scope === 'user' ? join(userData, 'User', 'settings.json') : join(workspace, '.vscode', 'settings.json');
  return {
    url: options.openFile
      ? `http://127.0.0.1:${port}/?workspace=${encodeURIComponent(join(workspace, options.openFile))}`
      : `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    env,
    workspace,
    reportFile,
    dir,
    report: () => {
      try {
        return JSON.parse(readFileSync(reportFile, 'utf8')) as ServerReport;
      } catch {
        return undefined;
      }
    },
    stop: async () => {
      // Its file watcher outlives a plain SIGTERM of the main process: end the whole group.
      const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {}
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      // Screenshots live in .test-artifacts; the profile, logs and copied workspace go.
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    },
    settingsText: async (scope) => (await settledSettings(settingsFile(scope))).text,
    settings: async (scope) => (await settledSettings(settingsFile(scope))).value,
    minagentLog: () => {
      const logs = join(userData, 'logs');
      const files = existsSync(logs)
        ? (readdirSync(logs, { recursive: true }) as string[]).filter((f) =>
            f.endsWith(join('minagent.minagent', 'MinAgent.log')),
          )
        : [];
      return files.map((f) => readFileSync(join(logs, f), 'utf8')).join('\n');
    },
  };
}

/** A settings file's text and value once it parses (read again until then, for up to 10 s). */
async function settledSettings(file: string): Promise<{ text: string; value: Record<string, unknown> }> {
  let last = '';
  return waitFor(
    () => `${file} to read whole (${last})`,
    () => {
      try {
        const text = readFileSync(file, 'utf8');
        return { text, value: parseSettingsText(text, file) };
      } catch (err) {
        last = err instanceof Error ? err.message : String(err);
        return undefined;
      }
    },
    10_000,
  );
}
