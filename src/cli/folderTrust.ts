import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliConfigDir } from '../core/auth/fileStore';
import { describeEndpoint, describeLaunch } from '../core/mcp/config/describe';
import type { ServerConfig } from '../core/mcp/config/serverConfig';
import type { Terminal } from './approve';
import { terminalLine } from './terminalText';

/**
 * A folder's settings decide which programs start, and a cloned repository's folder is written by
 * whoever wrote the repository. Its servers start only once the user has trusted that folder, as
 * the editor asks before it runs a workspace's servers: a y/N question on a terminal naming the
 * settings file and what it starts, remembered per folder (`trusted-folders.json` in the CLI's
 * config folder); without a terminal, only with `--trust` or `MINAGENT_TRUST=1` (for this run).
 */
export interface TrustAsk {
  /** The workspace folder the settings belong to. */
  folder: string;
  settingsPath: string;
  servers: readonly ServerConfig[];
  /** `--trust` or `MINAGENT_TRUST=1`: trusted for this run. */
  trustedByFlag: boolean;
  /** The terminal to ask on, when there is one. */
  terminal: Terminal | undefined;
  env?: NodeJS.ProcessEnv;
}

export type TrustDecision = { trusted: true } | { trusted: false; reason: string };

export function trustFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(cliConfigDir(env), 'trusted-folders.json');
}

/** The folder as the file system names it, so a link or `..` cannot stand for another one. */
function canonical(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

function readTrusted(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function remember(file: string, folder: string): void {
  const all = readTrusted(file);
  all[folder] = new Date().toISOString();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function isTrustedFolder(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return Object.hasOwn(readTrusted(trustFile(env)), canonical(folder));
}

/** Whether the folder's servers may start; asks once on a terminal and remembers a yes. */
export async function decideFolderTrust(ask: TrustAsk): Promise<TrustDecision> {
  const env = ask.env ?? process.env;
  const enabled = ask.servers;
  if (!enabled.length || ask.trustedByFlag) return { trusted: true };
  const folder = canonical(ask.folder);
  if (isTrustedFolder(folder, env)) return { trusted: true };
  const what = [
    `the settings file ${terminalLine(ask.settingsPath)} and the folder's MCP files start:`,
    ...enabled.flatMap((s) => [
      `  ${terminalLine(s.name)}${s.origin ? ` (${terminalLine(s.origin)})` : ''}: ${terminalLine(describeEndpoint(s))}`,
      ...describeLaunch(s).map((line) => `    ${line}`),
    ]),
  ].join('\n');
  if (!ask.terminal) {
    return {
      trusted: false,
      reason: `not started: the folder ${terminalLine(folder)} is not trusted; ${what}\nrun on a terminal to be asked once, or pass --trust (or set MINAGENT_TRUST=1) for this run`,
    };
  }
  ask.terminal.note(
    `${what}\nA folder's settings run programs with your rights; trust them only if you trust who wrote them.`,
  );
  const answer = (
    await ask.terminal.question(
      `Trust the folder ${terminalLine(folder)} and start its servers? (remembered for this folder) [y/N]: `,
    )
  )
    .trim()
    .toLowerCase();
  if (answer !== 'y' && answer !== 'yes')
    return { trusted: false, reason: `not started: you did not trust the folder ${terminalLine(folder)}` };
  remember(trustFile(env), folder);
  return { trusted: true };
}
