import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** Where the CLI looks for a folder's settings unless `--settings` names a file. */
export const DEFAULT_SETTINGS = join('.vscode', 'settings.json');

export interface CliArgs {
  command: string;
  positionals: string[];
  settings: string;
  workspace?: string;
  server?: string;
  json: boolean;
  /** `tools --search QUERY` (repeatable): each query's ranking, in order. */
  search: string[];
  /** `tools --search ... --limit N`: most tools per query. */
  limit?: string;
  verbose: boolean;
  script?: string;
  provider?: string;
  baseUrl?: string;
  model?: string;
  sendImages: boolean;
  /** `--approve all|readonly|none`; `--yes` is `all`. */
  approve?: string;
  yes: boolean;
  contextWindow?: string;
  /** `--sign-in print|fetch|none`: how a server's OAuth sign-in reaches the user. */
  signIn?: string;
  /** `--client-metadata-url URL`: a Client ID Metadata Document for OAuth. */
  clientMetadataUrl?: string;
  /** `--elicitation ask|defaults|decline`: how servers' forms, URLs and sampling requests are answered. */
  elicitation?: string;
  /** `--root DIR` (repeatable): the roots servers see; default the current folder. */
  roots: string[];
  /** `--trust`: the folder's servers may start this run without asking. */
  trust: boolean;
  /** `--sandbox always|off`: whether the folder's stdio servers run in a sandbox (default always). */
  sandbox?: string;
  /** `registry ... --registry URL`: the MCP registry to read. */
  registry?: string;
  /** `registry add ... --set ID=VALUE` (repeatable): a variable's value. */
  set: string[];
  /** `registry add ... --name NAME`: the entry's name. */
  name?: string;
  /** `registry add ... --scope user|workspace`: the user's VS Code settings, or --settings. */
  scope?: string;
  /** `registry add ... --package-registry`: install from the registry the package names (its registryBaseUrl). */
  packageRegistry: boolean;
  help: boolean;
  /** `--version`, `-V` (or the command `version`). */
  version: boolean;
}

export const USAGE = `usage: minagent <command> [options]

commands:
  servers                 one line per server: name, state, tool count, error
  tools [--json]          the merged tool registry
  tools --search QUERY [--search QUERY...] [--limit N] [--server S] [--json]
                          the tools a model's search_tools would find, ranked (name, server, score)
  call NAME [JSON]        call a tool and print its result
  resources [--json]      every server's resources and resource templates
  read URI [--server S]   print a resource (--server when more than one server has it)
  prompts [--json]        every server's prompts, named like tools (server.name after a clash)
  prompt NAME [JSON]      print a prompt's messages; arguments as a JSON object of strings
  skills [--json]         every server's skills (server/name, description, files)
  skill NAME              print a skill's SKILL.md, checked against its entry (SERVER/NAME after a clash)
  login NAME              sign in to an HTTP server that needs OAuth (prints the address to open)
  logout NAME             forget the server's OAuth tokens
  registry search [QUERY] [--registry URL] [--json]
                          servers of an MCP registry (the latest version of each): name, version,
                          title, what adding it would run or reach; default registry: the first
                          minagent.registries of your user settings (never a folder's), else the
                          official MCP Registry
  registry add NAME[@VERSION] [--registry URL] [--settings FILE] [--scope user|workspace]
       [--name ENTRY] [--set ID=VALUE...] [--package-registry] [--yes]
                          writes the server's minagent.servers entry (npx, uvx, docker, dnx or a URL)
                          after showing the exact command line; variables from --set, else asked
                          on a terminal (secrets without echo, kept in $XDG_CONFIG_HOME/minagent/
                          inputs.json, never in the settings); nothing runs until you start it;
                          --package-registry installs an npm package from the registry it names
  chat "PROMPT" --script FILE
                          one agent turn with a scripted model
  chat "PROMPT" --provider openai|anthropic --model NAME [--base-url URL] [--send-images]
       [--context-window TOKENS]
                          one agent turn with a real model; the key comes from
                          OPENAI_API_KEY or ANTHROPIC_API_KEY (none needed for Ollama);
                          --send-images gives an openai vision model the images tools return;
                          --context-window: tokens per request (default: the model's known
                          window, Ollama's own, or 32768); longer requests are trimmed
  chat options:
    --approve ask|all|readonly|none
                          tool calls that are not read-only: on a terminal MinAgent asks before
                          each (ask); without a terminal they are denied (readonly) unless told;
                          all runs every call, none runs no call
    --yes                 the same as --approve all

servers that ask (elicitation forms and URLs, sampling, roots):
  --elicitation ask|defaults|decline
                          ask: on a terminal (the default there) forms, URLs to open and
                          sampling requests are asked; defaults: forms are accepted with their
                          defaults, the rest declined; decline: everything is declined with a
                          note (the default without a terminal)
  --root DIR              a root folder servers may see (repeatable); default: the current folder
  (sampling uses the chat's model, within minagent.sampling.maxTokens of your user settings:
   {"*": 1024, "<server>": N} tokens per request; a request whose messages exceed
   minagent.sampling.maxInputChars, default 20000 characters, is refused, never cut)

options:
  --settings FILE         VS Code settings file (JSONC); default .vscode/settings.json
                          (the file read is named on stderr: it decides which programs start)
  --trust                 start the folder's servers this run without asking (also MINAGENT_TRUST=1);
                          otherwise a folder's servers start only once you trusted the folder: asked
                          once on a terminal (y/N, naming what would start) and remembered in
                          $XDG_CONFIG_HOME/minagent/trusted-folders.json (else ~/.config/...)
  --sandbox always|off    the folder's stdio servers run in a sandbox (the default, also
                          MINAGENT_SANDBOX_WORKSPACE_SERVERS): they read all but secrets (~/.ssh,
                          ~/.aws, .env files, editors' storage), write only their folder and reach
                          only their entry's sandbox.network.allowedDomains; off: only entries
                          with "sandbox" run in one. Linux needs bubblewrap, socat and ripgrep
  --workspace DIR         the workspace folder for \${workspaceFolder}; default: the folder holding .vscode
  --verbose               log server output and lifecycle to stderr
  --sign-in print|fetch|none
                          OAuth sign-in for HTTP servers: print the address and wait for the
                          browser (the default on a terminal), follow it without a browser
                          (servers that approve at once, e.g. test suites), or fail naming
                          \`minagent login\` (the default without a terminal). Tokens are kept in
                          $XDG_CONFIG_HOME/minagent/oauth.json (else ~/.config/...), mode 0600
  --client-metadata-url URL
                          an https Client ID Metadata Document to use as the OAuth client ID
                          where the authorization server supports it
  -h, --help              this help
  -V, --version           the version of minagent`;

export function parseCliArgs(argv: string[]): CliArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      settings: { type: 'string' },
      workspace: { type: 'string' },
      server: { type: 'string' },
      json: { type: 'boolean', default: false },
      search: { type: 'string', multiple: true },
      limit: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      script: { type: 'string' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'send-images': { type: 'boolean', default: false },
      approve: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      'context-window': { type: 'string' },
      'sign-in': { type: 'string' },
      'client-metadata-url': { type: 'string' },
      elicitation: { type: 'string' },
      root: { type: 'string', multiple: true },
      trust: { type: 'boolean', default: false },
      sandbox: { type: 'string' },
      registry: { type: 'string' },
      set: { type: 'string', multiple: true },
      name: { type: 'string' },
      scope: { type: 'string' },
      'package-registry': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'V', default: false },
    },
  });
  const [command = '', ...rest] = positionals;
  return {
    command,
    positionals: rest,
    settings: values.settings ?? DEFAULT_SETTINGS,
    ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
    ...(values.server !== undefined ? { server: values.server } : {}),
    json: values.json ?? false,
    search: values.search ?? [],
    ...(values.limit !== undefined ? { limit: values.limit } : {}),
    verbose: values.verbose ?? false,
    ...(values.script !== undefined ? { script: values.script } : {}),
    ...(values.provider !== undefined ? { provider: values.provider } : {}),
    ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    sendImages: values['send-images'] ?? false,
    ...(values.approve !== undefined ? { approve: values.approve } : {}),
    yes: values.yes ?? false,
    ...(values['context-window'] !== undefined ? { contextWindow: values['context-window'] } : {}),
    ...(values['sign-in'] !== undefined ? { signIn: values['sign-in'] } : {}),
    ...(values['client-metadata-url'] !== undefined ? { clientMetadataUrl: values['client-metadata-url'] } : {}),
    ...(values.elicitation !== undefined ? { elicitation: values.elicitation } : {}),
    roots: values.root ?? [],
    trust: values.trust ?? false,
    ...(values.sandbox !== undefined ? { sandbox: values.sandbox } : {}),
    ...(values.registry !== undefined ? { registry: values.registry } : {}),
    set: values.set ?? [],
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.scope !== undefined ? { scope: values.scope } : {}),
    packageRegistry: values['package-registry'] ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}
