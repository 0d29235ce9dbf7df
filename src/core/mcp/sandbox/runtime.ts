import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SandboxPolicy } from './policy';
import { guardSandboxHelpers } from './helperGuard';
import { loopbackHosts, preloadPath } from './preload';
import { HOST_PATH, helperEnvironment, insideCommand } from './environment';
import { protectedPaths } from './protectedPaths';
import { makeTempFolder } from './tempFolder';
import { namespaceRefusal, type NoSandbox } from './namespaces';

/** What the server's process is, before and after it is put in the sandbox. */
export interface SpawnRequest {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A spawn wrapped in the sandbox; `release()` once its process is gone. */
export interface SandboxedSpawn extends SpawnRequest {
  release(): void;
}

type Srt = typeof import('@anthropic-ai/sandbox-runtime');

/** How long the library stays started after its last server is gone. */
const IDLE_MS = 10_000;

/**
 * The sandbox of this process's servers, on Anthropic's sandbox-runtime (bubblewrap and a proxy on
 * Linux, sandbox-exec on macOS). The library keeps one state per process: it is started with the
 * first sandboxed server (its proxies listen from then on) and reset when the last one is gone. Each
 * server gets its own filesystem rules and its own network allowlist, bound to an unguessable id
 * that only its proxy settings carry.
 */
class SandboxRuntime {
  private srt: Promise<Srt> | undefined;
  private started: Promise<void> | undefined;
  private users = 0;
  /** Serializes start and reset: a server started while the last one's reset runs waits for it. */
  private turn: Promise<unknown> = Promise.resolve();
  private idle: ReturnType<typeof setTimeout> | undefined;
  /** Takes the library's helper processes off the orphan guard's list (they are gone). */
  private releaseHelpers: (() => void) | undefined;

  /**
   * Why no server can be sandboxed here and what the user can do, or undefined when one can. A machine that can is
   * checked once per process (every sandboxed start asks); one that cannot is checked again each time, so installing
   * bubblewrap or allowing user namespaces needs no reload.
   */
  async unavailable(): Promise<NoSandbox | undefined> {
    if (this.available) return undefined;
    const why = await this.check();
    this.available = why === undefined;
    return why;
  }

  private available = false;

  private async check(): Promise<NoSandbox | undefined> {
    let srt: Srt;
    try {
      srt = await this.load();
    } catch (err) {
      return {
        reason: `the sandbox library could not be loaded (${(err as Error).message})`,
        remedy: 'reinstall MinAgent, or run this server without its sandbox',
      };
    }
    if (!srt.SandboxManager.isSupportedPlatform())
      return {
        reason: `no sandbox is available on ${process.platform} (MinAgent sandboxes servers on Linux and macOS)`,
        remedy: 'run this server without its sandbox if you trust it',
      };
    const check = await srt.SandboxManager.checkDependenciesAsync();
    if (check.errors.length)
      return {
        reason: check.errors.join('; '),
        remedy: `${process.platform === 'linux' ? 'install them (on Debian or Ubuntu: apt-get install bubblewrap socat ripgrep)' : 'install what is missing'}, or run this server without its sandbox`,
      };
    const bwrap = hostPrograms().bwrapPath;
    return bwrap ? namespaceRefusal(bwrap) : undefined;
  }

  /**
   * Puts a server's process in a sandbox with `policy`; each denial the sandbox sees goes to
   * `onDenied` (`protectedPath`: a write that no allowWrite allows, see protectedPaths.ts).
   */
  async wrap(
    spawn: SpawnRequest,
    asked: SandboxPolicy,
    onDenied: (what: string, about: { protectedPath?: boolean }) => void,
  ): Promise<SandboxedSpawn> {
    // Its own temp folder first: a host temp folder that is missing fails here, by its name.
    const temp = makeTempFolder();
    const policy: SandboxPolicy = { ...asked, allowWrite: [...asked.allowWrite, temp.path] };
    let srt: Srt;
    try {
      srt = await this.acquire();
    } catch (err) {
      temp.remove();
      throw err;
    }
    let released = false;
    const id = randomBytes(16).toString('base64url');
    // The library judges a write against the rules it started with, not a server's own: a write
    // the server's policy allows is not a denial.
    const writable = [...policy.allowWrite, ...srt.getDefaultWritePaths()];
    // What it may never write inside those folders (a repository's config and hooks, .vscode, ...):
    // looked up now, as the folders are when it starts.
    const guarded = protectedPaths(
      spawn.cwd,
      asked.allowWrite.filter((p) => p !== policy.npmCache),
    );
    // And what its entry says it must never write (`sandbox.filesystem.denyWrite`).
    const denyWrite = [...guarded, ...(policy.denyWrite ?? [])];
    const under = (path: string, roots: string[]) =>
      roots.some((w) => path === w || path.startsWith(w.endsWith('/') ? w : `${w}/`));
    const unsubscribe = this.watch(srt, id, (line) => {
      const path = /^deny \S+ (\/.*)$/.exec(line)?.[1];
      if (path !== undefined && under(path, guarded)) onDenied(line, { protectedPath: true });
      else if (path === undefined || !under(path, writable) || under(path, denyWrite)) onDenied(line, {});
    });
    const release = () => {
      if (released) return;
      released = true;
      unsubscribe();
      srt.SandboxManager.unregisterCommandNetworkLists(id);
      temp.remove();
      this.releaseOne();
    };
    try {
      if (policy.npmCache) await mkdir(policy.npmCache, { recursive: true });
      srt.SandboxManager.registerCommandNetworkLists(id, { allowedDomains: policy.allowedDomains });
      const inside = {
        ...spawn.env,
        ...npmSettings(policy),
        ...nodeSettings(spawn.env, policy),
        TMPDIR: temp.path,
        TMP: temp.path,
        TEMP: temp.path,
      };
      const { line, carriers } = insideCommand(spawn.command, spawn.args, inside, shellQuote);
      const wrapped = await srt.SandboxManager.wrapWithSandboxArgv(
        line,
        undefined,
        { filesystem: { denyRead: policy.denyRead, allowWrite: policy.allowWrite, denyWrite } },
        undefined,
        spawn.cwd,
        // What the library shows of the command (its denials' attribution): the server's, not its environment.
        { commandId: id, commandText: [spawn.command, ...spawn.args].map(shellQuote).join(' ') },
      );
      const [file, ...args] = withoutStartupFiles(wrapped.argv);
      if (!file) throw new Error('the sandbox gave no command to run');
      // What runs on the host (the library's shell, bubblewrap, socat) runs with an environment built
      // here; the server's own is carried inside under inert names (environment.ts).
      return {
        command: file,
        args,
        cwd: spawn.cwd,
        env: { ...helperEnvironment(), ...proxySettings(wrapped.env), ...shellSettings(), ...carriers },
        release,
      };
    } catch (err) {
      release();
      throw err;
    }
  }

  private watch(srt: Srt, id: string, onDenied: (what: string) => void): () => void {
    const store = srt.SandboxManager.getSandboxViolationStore();
    let seen = 0;
    return store.subscribe(() => {
      const mine = store.getViolationsForCommand(id);
      for (const v of mine.slice(seen)) onDenied(v.line);
      seen = mine.length;
    });
  }

  private acquire(): Promise<Srt> {
    this.users++;
    clearTimeout(this.idle);
    const ready = this.turn.then(async () => {
      const srt = await this.load();
      // The library also looks for such names below this process's own working directory, which is not
      // a server's folder (those are protectedPaths' work; the bundle shows it `/`, scripts/build.mjs):
      // one level is enough there. At its default depth, from `/`, the search ran into its 10 s limit
      // at every sandboxed start.
      this.started ??= srt.SandboxManager.initialize(
        {
          network: { allowedDomains: [], deniedDomains: [] },
          filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
          mandatoryDenySearchDepth: 1,
          ...hostPrograms(),
        },
        undefined,
        true,
      ).then(async () => {
        this.releaseHelpers = await guardSandboxHelpers();
      });
      await this.started;
      return srt;
    });
    this.turn = ready.catch(() => undefined);
    return ready.catch((err: unknown) => {
      this.started = undefined;
      this.releaseOne();
      throw err;
    });
  }

  private releaseOne(): void {
    if (--this.users > 0) return;
    // A restart (or the next server) comes soon: the library's proxies stay up a little while, on a
    // timer that never holds the process open.
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.reset(), IDLE_MS);
    this.idle.unref?.();
  }

  /** Stops the library's proxies and watchers once no sandboxed server runs (at once when the host closes). */
  reset(): Promise<void> {
    clearTimeout(this.idle);
    const started = this.started;
    if (this.users > 0 || !started) return this.turn.then(() => undefined);
    this.started = undefined;
    const done = this.turn.then(async () => {
      await started.catch(() => undefined);
      const srt = await this.load();
      await srt.SandboxManager.reset().catch(() => undefined);
      this.releaseHelpers?.();
      this.releaseHelpers = undefined;
    });
    this.turn = done;
    return done;
  }

  private load(): Promise<Srt> {
    // The extension and the CLI load the library from its own bundle (beside this one) when a
    // sandboxed server first starts; from the sources, from node_modules.
    const bundled = join(__dirname, 'sandbox.mjs');
    this.srt ??= existsSync(bundled)
      ? (import(pathToFileURL(bundled).href) as Promise<Srt>)
      : import('@anthropic-ai/sandbox-runtime');
    return this.srt;
  }
}

/** The one runtime of this process (the library it drives is one per process). */
export const sandboxRuntime = new SandboxRuntime();

/** bubblewrap and socat by their absolute paths on the system's PATH (never an entry's, never a relative one). */
function hostPrograms(): { bwrapPath?: string; socatPath?: string } {
  if (process.platform !== 'linux') return {};
  const find = (name: string) =>
    HOST_PATH.split(':')
      .map((dir) => join(dir, name))
      .find((p) => existsSync(p));
  const bwrapPath = find('bwrap');
  const socatPath = find('socat');
  return { ...(bwrapPath ? { bwrapPath } : {}), ...(socatPath ? { socatPath } : {}) };
}

/**
 * Only the proxy settings of the environment the library built (it starts from this process's, which the server's is
 * not).
 */
function proxySettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== process.env[k]) out[k] = v;
  return out;
}

function npmSettings(policy: SandboxPolicy): Record<string, string> {
  return {
    ...(policy.npmCache ? { npm_config_cache: policy.npmCache } : {}),
    ...(policy.npmRegistry ? { npm_config_registry: policy.npmRegistry } : {}),
  };
}

/** A Node server's fetch and sockets reach the allowed hosts through the proxy too (netPreload.cjs). */
function nodeSettings(env: Record<string, string>, policy: SandboxPolicy): Record<string, string> {
  const preload = `--require=${JSON.stringify(preloadPath())}`;
  return {
    NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${preload}` : preload,
    MINAGENT_IN_SANDBOX: '1',
    MINAGENT_SANDBOX_LOOPBACK: loopbackHosts(policy.allowedDomains).join(','),
    MINAGENT_SANDBOX_DENY_READ: JSON.stringify(policy.denyRead),
  };
}

/**
 * The library's shells inside the sandbox (the one bubblewrap starts, and the one its seccomp helper
 * starts) have the server's MCP stream, a socket, for stdin too, and Debian's and Ubuntu's bash then
 * read ~/.bashrc when SHLVL is unset or 0 (an editor opened from the desktop): twice per start, the
 * user's whole shell set-up (nvm, pyenv, conda) ran in the sandbox before the server, and what it
 * printed went into the MCP stream. Bash reads it only for the first level of shells, so the wrapped
 * command starts at level 1 at least (`--norc` covers the outermost shell only).
 */
function shellSettings(): Record<string, string> {
  return { SHLVL: '1' };
}

/** One word for a POSIX shell, whatever it holds. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The library starts the sandbox with `bash -c`, on this host. Its stdin is the server's MCP stream, a
 * socket, and Debian's and Ubuntu's bash take a socket for stdin as a remote login: started without
 * SHLVL (an editor opened from the desktop), it reads the user's ~/.bashrc first, unsandboxed, into the
 * server's stdout and stderr (a line printed there would corrupt the MCP stream; pyenv's and nvm's set-up
 * ran before every sandboxed start). `--norc` turns that off.
 */
function withoutStartupFiles(argv: string[]): string[] {
  const [file, ...args] = argv;
  if (file === undefined || !/(^|\/)bash$/.test(file) || args[0] !== '-c') return argv;
  return [file, '--norc', ...args];
}
