// The README's run command: a real VS Code (code-server) in your browser, on the demo workspace
// whose settings list the seed's fixture servers, with the packaged extension installed.
// No account, key or network needed. Stop it with Ctrl-C.
// Each run starts from a fresh profile (no chats, grants or layout from the last run); `npm run demo
// -- --keep` (or MINAGENT_DEMO_KEEP=1) keeps the last one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureE2e, paths } from './e2e-setup.mjs';
import { ensureNodeModules, ensureSandboxTools } from './setup.mjs';

ensureNodeModules();
ensureSandboxTools();
const left = await ensureE2e({ browser: false });
if (left.length) {
  console.error(`demo: cannot start VS Code, still missing:\n  ${left.join('\n  ')}`);
  process.exit(1);
}
// MINAGENT_DEMO_SKIP_PACKAGE=1: the tests' own package is used (they have just built it).
if (
  process.env.MINAGENT_DEMO_SKIP_PACKAGE !== '1' &&
  spawnSync('npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0
)
  process.exit(1);

// A local model server that speaks the OpenAI wire format, so the chat works with no account or key.
const model = spawn(process.execPath, ['fixtures/models/mock-model.mjs', '--models', 'demo-model'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const modelPort = await new Promise((r) => model.stdout.once('data', (d) => r(String(d).trim().split(' ')[1])));

// An MCP server behind a local OAuth authorization server (its page asks, Allow signs in), to try Sign In.
const oauth = spawn(process.execPath, ['fixtures/servers/oauth.mjs', '--consent'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const oauthUrls = await new Promise((r) => {
  let text = '';
  oauth.stdout.on('data', (d) => {
    text += d;
    const line = /^listening (.*)$/m.exec(text)?.[1];
    if (line) r(JSON.parse(line));
  });
});

// A local MCP registry (the v0.1 API over documents for real npm packages), for Add Server from Registry….
const registry = spawn(process.execPath, ['fixtures/registry/registry.mjs'], { stdio: ['pipe', 'pipe', 'inherit'] });
const registryUrl = await new Promise((r) => registry.stdout.once('data', (d) => r(String(d).trim().split(' ')[1])));

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const home = resolve(process.env.MINAGENT_DEMO_HOME ?? join(paths.cache, '..', 'demo-profile'));
const userData = join(home, 'user-data');
const extensions = join(home, 'extensions');
const keep = process.argv.includes('--keep') || process.env.MINAGENT_DEMO_KEEP === '1';
if (!keep) rmSync(userData, { recursive: true, force: true });
mkdirSync(join(userData, 'User'), { recursive: true });
const servers = resolve('fixtures/servers');
writeFileSync(
  join(userData, 'User', 'settings.json'),
  JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      // Nothing competes for the first look: MinAgent's chat opens with the caret in its input.
      'minagent.revealOnStartup': true,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      'git.openRepositoryInParentFolders': 'never',
      'minagent.chat.models': [
        { provider: 'openai', baseUrl: `http://127.0.0.1:${modelPort}/v1`, model: 'demo-model' },
      ],
      'minagent.registries': [registryUrl],
      'minagent.servers': {
        // Its tools are always prefixed (signin.echo): the seed's research server keeps `echo`.
        'sign-in': { type: 'http', url: oauthUrls.mcp, namespace: 'signin' },
        // Prompts (type / in the chat), resources (the Resources view, Add to Chat) and resource links.
        library: { command: 'node', args: [join(servers, 'library.mjs')] },
        // A server that asks: a form (elicitation), a URL, a completion from your model (sampling), your roots.
        asker: { command: 'node', args: [join(servers, 'asker.mjs')] },
        // An MCP App: the official vanilla-JS example, whose get-time tool shows a page under its card.
        clock: {
          command: 'node',
          args: [resolve('node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'],
        },
        // Long-running calls (the Tasks extension): "build it" runs 20 s as a task (Run in Background, Stop Task);
        // "deploy it" asks which stage midway.
        builds: {
          command: 'node',
          args: [join(servers, 'tasker.mjs')],
          env: { TASKER_TOOLS: 'build,deploy', TASKER_POLL_MS: '1000' },
        },
        // A server's skills (the Skills extension): "write the release notes" loads one, asking first.
        skills: { command: 'node', args: [join(servers, 'skillful.mjs')], env: { SKILLFUL_ONLY: 'release-notes' } },
        // An MCP App of ours ("show the kit"): Pick tells the model what you picked, and "what did I pick?" asks a tool
        // the app offers while it is open; Ask the model (its own sampling); Download report (saved where you say);
        // "write the kit slowly" shows it while the model writes the call (once you allowed show_kit for the chat).
        kit: { command: 'node', args: [join(servers, 'appkit.mjs')] },
      },
    },
    null,
    2,
  ),
);
const workspace = resolve('fixtures/workspaces/demo');
const node = join(paths.node24Bin, 'node');
const env = { ...process.env, PATH: `${paths.node24Bin}:${process.env.PATH}` };
const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
if (
  spawnSync(node, [paths.codeServer, ...common, '--install-extension', resolve('minagent.vsix'), '--force'], {
    env,
    stdio: 'ignore',
  }).status !== 0
) {
  console.error('demo: installing minagent.vsix into code-server failed');
  process.exit(1);
}
const server = spawn(
  node,
  [
    paths.codeServer,
    ...common,
    '--bind-addr',
    `${host}:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--disable-workspace-trust',
    '--ignore-last-opened',
    workspace,
  ],
  // In the workspace, as `code .` in a terminal starts VS Code.
  { cwd: workspace, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
);
let shown = false;
const onOutput = (d) => {
  if (!shown && String(d).includes('HTTP server listening')) {
    shown = true;
    console.log(
      `\nMinAgent demo is running. Open:\n\n  http://${host}:${port}/?folder=${encodeURIComponent(workspace)}\n\n` +
        'The MinAgent chat opens on the left. Ask "What is MCP?", "use analytics" or "run the slow job"; type / for the\n' +
        'library\'s prompts; open Resources for its notes; ask "fill in my profile" for a server\'s form, "ask the oracle"\n' +
        'for sampling, "what time is it?" for an MCP App, "build it" for a long-running task, "write the release notes"\n' +
        "for a server's skill (the demo model is a local stand-in that speaks the OpenAI\n" +
        'wire format). The "sign-in" server waits for you to sign in: click Sign In under it (its authorization server\n' +
        'runs here too). Add Server from Registry… (the library icon on the Tools view) lists a local registry.\n' +
        `${keep ? 'The last profile was kept.' : 'A fresh profile (keep it with --keep).'} Ctrl-C stops it.\n`,
    );
  }
};
server.stdout.on('data', onOutput);
server.stderr.on('data', onOutput);
const stop = () => {
  model.kill();
  registry.kill();
  oauth.stdin.end();
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {}
  setTimeout(() => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {}
    process.exit(0);
  }, 3_000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => process.exit(code ?? 0));
