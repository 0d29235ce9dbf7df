import { existsSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { cliConfigDir, FileSecretStore } from '../core/auth/fileStore';
import { EraMemory } from '../core/mcp/connection/eraMemory';
import { describeProblem } from '../core/mcp/config/describe';
import { ServerHub } from '../core/mcp/hub/serverHub';
import { streamLogger } from '../core/base/logger';
import { loadConfig, readSettingsFile, settingsValue } from '../core/settingsFile';
import { storedInputs } from '../core/mcp/config/storedInputs';
import { RegistryError } from '../core/serverRegistry/client';
import { cliInputsFile, registryAdd, registrySearch } from './registryCommand';
import { hiddenQuestion } from './hiddenInput';
import { readUserSettings, userSettingsFile } from './userSettings';
import { DEFAULT_SETTINGS, parseCliArgs, USAGE, type CliArgs } from './args';
import { noSettingsMessage } from './noProject';
import { cliFileServers, rememberWorkspaceFiles } from './mcpFiles';
import { withAlsoIn, workspaceServerFiles } from '../core/mcp/config/serverFiles';
import { approvalSetting, approveMode, cliApprover, NO_GRANTS, processTerminal, type ApproveMode } from './approve';
import { ApprovalPolicy } from '../core/approvals/approvalPolicy';
import {
  callCommand,
  chatCommand,
  NotFound,
  parseApproveFlag,
  parseCallInput,
  parseChatInput,
  serversCommand,
  toolsCommand,
  UsageError,
  type Output,
} from './commands';
import { failedServers, failureLines } from './failures';
import { ClientRequests } from '../core/mcp/clientRequests/clientRequests';
import { FolderRoots } from '../core/mcp/clientRequests/roots';
import { MemoryGrants, samplingInputLimit, samplingLimit } from '../core/mcp/clientRequests/sampling';
import { createModel } from '../core/models/factory';
import { cliClientRequestUi, SERVER_ASK_MODES, type ServerAskMode } from './clientRequestsUi';
import {
  parsePromptInput,
  parseReadInput,
  promptCommand,
  promptsCommand,
  readCommand,
  resourcesCommand,
} from './featureCommands';
import { skillCommand, skillsCommand } from './skillCommands';
import { parseSearchInput, searchCommand, type SearchInput } from './searchCommand';
import { cliAuth, SIGN_IN_MODES, signInMode, type CliAuth } from './signIn';
import { loginCommand, logoutCommand, signInHints } from './loginCommands';
import { onBeforeWrite, stderr, stdout } from './terminalText';
import { decideFolderTrust, isTrustedFolder } from './folderTrust';
import { ProgressLine } from './progressLine';
import { cliSandboxRules } from './sandboxRules';
import { parseWorkspaceRule } from '../core/mcp/sandbox/decision';

/** package.json's version, set by the build (scripts/build.mjs). */
declare const MINAGENT_VERSION: string;

/** How long a stopped call may take to cancel its task at the server before the servers close. */
const STOP_GRACE_MS = 3_000;

const COMMANDS = new Set([
  'servers',
  'tools',
  'call',
  'chat',
  'resources',
  'read',
  'prompts',
  'prompt',
  'skills',
  'skill',
  'login',
  'logout',
  'registry',
]);

async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    // One line that names what was wrong; the help is a flag away.
    return fail(`${(err as Error).message}\nrun \`minagent --help\` for the commands and options`, 2);
  }
  if (args.version || args.command === 'version') {
    stdout(`minagent ${MINAGENT_VERSION}\n`);
    return 0;
  }
  if (args.help || !args.command) {
    stdout(`${USAGE}\n`);
    return args.help ? 0 : 2;
  }
  if (!COMMANDS.has(args.command))
    return fail(`unknown command "${args.command}"; try: ${[...COMMANDS].join(', ')}`, 2);
  // A registry is read and a settings file written; no server starts.
  if (args.command === 'registry') return registryMain(args);

  let call: ReturnType<typeof parseCallInput> | undefined;
  let chat: ReturnType<typeof parseChatInput> | undefined;
  let read: ReturnType<typeof parseReadInput> | undefined;
  let prompt: ReturnType<typeof parsePromptInput> | undefined;
  let search: SearchInput | undefined;
  try {
    if (args.command === 'read') read = parseReadInput(args.positionals, args.server);
    if (args.command === 'tools') search = parseSearchInput(args);
    if (args.command === 'prompt') prompt = parsePromptInput(args.positionals);
    if (args.command === 'call') call = parseCallInput(args.positionals);
    if (args.command === 'chat') {
      chat = parseChatInput(args);
      parseApproveFlag(args);
    }
    if (args.signIn !== undefined && !(SIGN_IN_MODES as readonly string[]).includes(args.signIn))
      throw new Error(`--sign-in must be one of ${SIGN_IN_MODES.join(', ')}`);
    if ((args.command === 'login' || args.command === 'logout') && args.positionals.length !== 1)
      throw new Error(`usage: minagent ${args.command} NAME`);
    if (args.elicitation !== undefined && !SERVER_ASK_MODES.includes(args.elicitation as ServerAskMode))
      throw new Error(`unknown --elicitation "${args.elicitation}"; use ${SERVER_ASK_MODES.join(', ')}`);
  } catch (err) {
    return fail((err as Error).message, 2);
  }

  const { rule: sandboxRule, problem: sandboxProblem } = parseWorkspaceRule(
    args.sandbox ?? process.env.MINAGENT_SANDBOX_WORKSPACE_SERVERS,
    args.sandbox !== undefined ? '--sandbox' : 'MINAGENT_SANDBOX_WORKSPACE_SERVERS',
    ['always', 'off'],
  );
  if (sandboxProblem) return fail(sandboxProblem, 2);
  const settingsPath = resolve(args.settings);
  // Outside a project (no settings file, and no MCP file of the folder's either): what was looked for, and --settings.
  const onlyMcpFiles =
    args.settings === DEFAULT_SETTINGS &&
    !existsSync(settingsPath) &&
    workspaceServerFiles(process.cwd()).some((f) => existsSync(f.path));
  if (args.settings === DEFAULT_SETTINGS && !existsSync(settingsPath) && !onlyMcpFiles)
    return fail(noSettingsMessage(process.cwd()), 1);
  let settings: Record<string, unknown> = {};
  try {
    if (!onlyMcpFiles) settings = readSettingsFile(settingsPath);
  } catch (err) {
    return fail((err as Error).message, 1);
  }
  // What VS Code reads from user settings only (the sampling limits) comes from the user's settings file, never the
  // folder's.
  let userSettings: Record<string, unknown>;
  try {
    userSettings = readUserSettings();
  } catch (err) {
    return fail((err as Error).message, 1);
  }
  // The settings file decides which programs start: say which one it is.
  stderr(`settings: ${onlyMcpFiles ? `none (${settingsPath} is not there; the folder's MCP files)` : settingsPath}\n`);
  const folder = dirname(settingsPath);
  const workspace = resolve(args.workspace ?? (basename(folder) === '.vscode' ? dirname(folder) : folder));
  // `${input:}` values the CLI was given for this file's entries (registry add), bound to each entry.
  const inputs = await storedInputs(
    settingsValue(settings, 'servers'),
    settingsPath,
    new FileSecretStore(cliInputsFile()),
  );
  const fromSettings = loadConfig(settings, {
    workspaceFolder: workspace,
    input: (id, server) => inputs.get(server)?.get(id),
  });
  const log = streamLogger((line) => stderr(`${line}\n`), args.verbose);

  const isTTY = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  // A tool's progress on one line of a terminal's stderr (src/cli/progressLine.ts), erased before anything else is
  // written.
  const progress = ProgressLine.forTerminal(process.stderr);
  onBeforeWrite(progress && (() => progress.clear()));
  const terminal = processTerminal(progress);
  const trustedByFlag = args.trust || process.env.MINAGENT_TRUST === '1';
  // The MCP files the editor reads (the folder's, and other tools' of the user once confirmed): the settings file wins
  // a clash.
  const folderTrusted = isTrustedFolder(workspace);
  const files = await cliFileServers({
    workspace,
    folderTrusted,
    settings,
    taken: Object.keys(Object(settingsValue(settings, 'servers') ?? {})),
    inputs: new FileSecretStore(cliInputsFile()),
    terminal: isTTY ? terminal : undefined,
    trustedByFlag,
  });
  const config = {
    ...fromSettings,
    servers: withAlsoIn([...fromSettings.servers, ...files.servers], files.alsoIn),
    disabled: [...fromSettings.disabled, ...files.disabled],
    problems: [...fromSettings.problems, ...files.problems],
  };
  for (const p of config.problems) (p.severity === 'error' ? log.error : log.warn)(describeProblem(p));
  for (const w of files.waiting)
    log.warn(
      `${w.file.label}: ${w.entries.map((e) => e.name).join(', ')} not started: ${w.appeared ? 'the file changed since you trusted this folder (a sandboxed server may have written it); it starts' : "another tool's file starts"} once you confirm it on a terminal (or with --trust for this run)`,
    );
  const trust = await decideFolderTrust({
    folder: workspace,
    settingsPath,
    // The folder's servers; another tool's file of the user was confirmed for itself.
    servers: config.servers.filter((s) => !s.userFile),
    trustedByFlag,
    terminal: isTTY ? terminal : undefined,
  });
  if (!trust.trusted) {
    terminal.close();
    return fail(trust.reason, 1);
  }
  // Trusted on this run's question: the folder's MCP files are trusted as they are now.
  if (!folderTrusted && isTrustedFolder(workspace)) await rememberWorkspaceFiles(workspace);
  // `login` always signs in (printing the address unless told to fetch it); other commands as --sign-in says.
  const mode = args.command === 'login' && args.signIn === undefined ? 'print' : signInMode(args.signIn, isTTY);
  let auth: CliAuth | undefined;
  try {
    auth = await cliAuth(
      config.servers,
      mode,
      terminal,
      args.clientMetadataUrl ? { clientMetadataUrl: args.clientMetadataUrl } : {},
    );
  } catch (err) {
    terminal.close();
    return fail((err as Error).message, 1);
  }
  if (args.command === 'logout') {
    try {
      return await logoutCommand(auth, config.servers, args.positionals[0]!, (line) => stdout(`${line}\n`));
    } finally {
      await auth?.dispose();
      terminal.close();
    }
  }
  // Servers that ask: forms, URLs and sampling on the terminal; roots from --root or the current folder.
  const chatModel = chat ? createModel(chat.model) : undefined;
  const roots = new FolderRoots(args.roots.length ? args.roots.map((r) => resolve(r)) : [process.cwd()]);
  const clientRequests = new ClientRequests({
    ui: cliClientRequestUi((args.elicitation as ServerAskMode | undefined) ?? (isTTY ? 'ask' : 'decline'), terminal),
    roots,
    sampling: {
      model: async () => chatModel,
      maxTokens: (server) => samplingLimit(settingsValue(userSettings, 'sampling.maxTokens'), server),
      grants: new MemoryGrants(),
      maxInputChars: () => samplingInputLimit(settingsValue(userSettings, 'sampling.maxInputChars')),
    },
  });
  // Each server's era, so the next run goes straight to the handshake it speaks (digests only).
  const eras = new EraMemory(new FileSecretStore(join(cliConfigDir(), 'eras.json')));
  const hub = new ServerHub({
    logger: log,
    settings: config.settings,
    clientRequests,
    eras,
    sandbox: cliSandboxRules(sandboxRule, workspace),
    ...(auth ? { auth: (c, l) => auth.manager.forServer(c, l) } : {}),
  });
  const abort = new AbortController();
  // A call that is stopping (a task being cancelled at its server) is given a moment before its server closes.
  let stopping: Promise<unknown> | undefined;
  // Ctrl+C, a kill, or the terminal closed: the servers and their sandbox are closed first; then 130
  // (docs/FEATURES.md), or 129 when the terminal closed (SIGHUP).
  const onSignal = (signal: NodeJS.Signals) => {
    abort.abort();
    void Promise.race([stopping, new Promise((r) => setTimeout(r, stopping ? STOP_GRACE_MS : 0))])
      .then(() => hub.closeAll())
      .then(() => process.exit(signal === 'SIGHUP' ? 129 : 130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
  const io: Output = {
    out: (line) => stdout(`${line}\n`),
    err: (line) => stderr(`${line}\n`),
    ...(progress ? { progress } : {}),
    aligned: process.stdout.isTTY === true,
  };
  try {
    if (args.command === 'login') return await loginCommand(hub, auth, config, args.positionals[0]!, io);
    hub.reconcile(config.servers, config.problems, config.settings);
    await hub.whenIdle();
    signInHints(hub, log);
    const failed = failedServers(hub, config);
    switch (args.command) {
      case 'servers':
        return serversCommand(hub, config, io);
      case 'tools':
        return search ? searchCommand(hub, search, args.json, io, failed) : toolsCommand(hub, args.json, io, failed);
      case 'call':
        stopping = callCommand(hub, call!, io, failed, abort.signal);
        return await (stopping as Promise<number>);
      case 'resources':
        return resourcesCommand(hub, args.json, io, failed);
      case 'read':
        return await readCommand(hub, read!, args.json, io, failed);
      case 'prompts':
        return promptsCommand(hub, args.json, io, failed);
      case 'skills':
        return skillsCommand(hub, args.json, io, failed);
      case 'skill':
        return await skillCommand(hub, args.positionals[0], io);
      case 'prompt':
        return await promptCommand(hub, prompt!, args.json, io, failed);
      default: {
        for (const line of failureLines(failed)) io.err(line);
        const approve: ApproveMode = approveMode(args.approve, args.yes, isTTY);
        // The editor's policy: this folder's trust, the user's minagent.chat.approval; no "Always allow" is kept here.
        const policy = new ApprovalPolicy(
          {
            server: (name) => hub.server(name)?.config,
            mode: () => approvalSetting(settingsValue(userSettings, 'chat.approval')),
            trusted: () => trust.trusted,
          },
          NO_GRANTS,
        );
        return await chatCommand(
          hub,
          { ...chat!, ...(chatModel ? { instance: chatModel } : {}) },
          io,
          abort.signal,
          (line) => stderr(`${line}\n`),
          cliApprover(approve, terminal, policy),
        );
      }
    }
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    if (err instanceof NotFound) return fail(err.message, 1);
    return fail(`unexpected error: ${(err as Error).stack ?? String(err)}`, 1);
  } finally {
    // A command that ends without a last line of its own leaves no progress line behind.
    progress?.clear();
    await hub.closeAll();
    await auth?.dispose();
    clientRequests.dispose();
    roots.dispose();
    terminal.close();
  }
}

/** `minagent registry search|add`. */
async function registryMain(args: CliArgs): Promise<number> {
  const [sub, target, ...extra] = args.positionals;
  const io: Output = { out: (line) => stdout(`${line}\n`), err: (line) => stderr(`${line}\n`) };
  if (args.scope !== undefined && args.scope !== 'user' && args.scope !== 'workspace')
    return fail('--scope must be user or workspace', 2);
  const settings = args.scope === 'user' ? userSettingsFile() : args.settings;
  const options = {
    ...(args.registry ? { registry: args.registry } : {}),
    settings,
    json: args.json,
    set: args.set,
    ...(args.name ? { name: args.name } : {}),
    yes: args.yes,
    packageRegistry: args.packageRegistry,
  };
  const isTTY = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const terminal = isTTY ? { ...processTerminal(), hidden: hiddenQuestion } : undefined;
  try {
    if (sub === 'search' && extra.length === 0) return await registrySearch(target, options, io);
    if (sub === 'add' && target && extra.length === 0) return await registryAdd(target, options, io, terminal);
    return fail('usage: minagent registry search [QUERY] | minagent registry add NAME[@VERSION]', 2);
  } catch (err) {
    if (err instanceof UsageError) return fail(err.message, 2);
    if (err instanceof RegistryError) return fail(err.message, 1);
    return fail((err as Error).message, 1);
  } finally {
    terminal?.close();
  }
}

function fail(message: string, code: number): number {
  stderr(`minagent: ${message}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    stderr(`minagent: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
