// `minagent chat` and the editor's chat approve alike: the same cases (a server's `autoApprove` from
// a folder's settings, `["*"]` there, `trusted: true` there, `minagent.chat.approval` of the user's
// settings) go through the built CLI (no terminal: what the policy does not allow is denied) and
// through the core policy the editor's chat wraps (src/extension/chat/approvals.ts builds it from
// the window's settings and trust), and each call runs in one exactly when the other lets it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ApprovalPolicy } from '../../src/core/approvals/approvalPolicy';
import { serverIdentity } from '../../src/core/mcp/config/identity';
import { loadConfig } from '../../src/core/settingsFile';
import { ROOT, SERVERS } from '../helpers';

const CLI = join(ROOT, 'dist', 'cli.js');
const work = mkdtempSync(join(tmpdir(), 'minagent-approval-parity-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Case {
  name: string;
  /** Extra fields of each server's entry in the folder's settings. */
  entries: Record<string, Record<string, unknown>>;
  /** The user's own settings (`minagent.chat.approval`). */
  user?: Record<string, unknown>;
  /** The calls, in order; `reads` is the servers whose results the model read before it. */
  calls: Array<{ tool: string; server: string; remote: string; readOnly: boolean; reads: string[] }>;
  /** Which calls run (the same through both). */
  runs: boolean[];
}

const ROW_COUNT = { tool: 'analytics.row_count', server: 'analytics', remote: 'row_count', readOnly: false, reads: [] };
const CASES: Case[] = [
  {
    name: "a folder's autoApprove naming the tool (a trusted folder)",
    entries: { analytics: { autoApprove: ['row_count'] } },
    calls: [ROW_COUNT],
    runs: [true],
  },
  {
    name: 'a folder\'s autoApprove ["*"] (only the user\'s own settings may say that)',
    entries: { analytics: { autoApprove: ['*'] } },
    calls: [ROW_COUNT],
    runs: [false],
  },
  { name: 'nothing said: a tool that is not read-only asks', entries: {}, calls: [ROW_COUNT], runs: [false] },
  {
    name: "a folder's trusted: true (only the user's own settings may vouch): a read-only tool after another server's result asks",
    entries: { analytics: { trusted: true } },
    calls: [
      { tool: 'search_corpus', server: 'research', remote: 'search_corpus', readOnly: true, reads: [] },
      { tool: 'analytics.echo', server: 'analytics', remote: 'echo', readOnly: true, reads: ['research'] },
    ],
    runs: [true, false],
  },
  {
    name: 'the user\'s minagent.chat.approval "never"',
    entries: {},
    user: { 'minagent.chat.approval': 'never' },
    calls: [ROW_COUNT],
    runs: [true],
  },
];

const ARGS: Record<string, Record<string, unknown>> = {
  'analytics.row_count': { table: 'papers' },
  search_corpus: { query: 'mcp' },
  'analytics.echo': { text: 'hi' },
};

describe('approvals: minagent chat and the editor decide alike', { timeout: 120_000 }, () => {
  CASES.forEach((c, i) => {
    test(c.name, () => {
      const folder = join(work, `case-${i}`);
      mkdirSync(join(folder, '.vscode'), { recursive: true });
      const servers = {
        research: { command: 'node', args: [`${SERVERS}/research.mjs`], ...(c.entries.research ?? {}) },
        analytics: { command: 'node', args: [`${SERVERS}/analytics.mjs`], ...(c.entries.analytics ?? {}) },
      };
      writeFileSync(join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'minagent.servers': servers }));
      const config = join(folder, 'config');
      mkdirSync(join(config, 'Code', 'User'), { recursive: true });
      writeFileSync(join(config, 'Code', 'User', 'settings.json'), JSON.stringify(c.user ?? {}));
      const script = join(folder, 'script.json');
      writeFileSync(
        script,
        JSON.stringify([
          ...c.calls.map((call) => ({ toolCalls: [{ name: call.tool, arguments: ARGS[call.tool] }] })),
          { final: 'done' },
        ]),
      );

      // The CLI, without a terminal.
      const r = spawnSync(process.execPath, [CLI, '--trust', 'chat', 'go', '--script', script], {
        cwd: folder,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, XDG_CONFIG_HOME: config },
      });
      assert.equal(r.status, 0, r.stderr);
      const cliRuns = c.calls.map((call, k) => {
        const line = r.stdout.split('\n').find((l) => l.startsWith(`[${k}] tool_call: ${call.tool} -> `));
        assert.ok(line, `call ${k} (${call.tool}) in the output: ${r.stdout}`);
        return !line.includes('"error":"the user denied');
      });

      // The editor's policy, given the same entries (a trusted workspace's), the same user setting.
      const loaded = loadConfig({ 'minagent.servers': servers }, { workspaceFolder: folder });
      const entries = new Map(loaded.servers.map((s) => [s.name, { ...s, origin: 'workspace settings' }]));
      const policy = new ApprovalPolicy(
        {
          server: (name) => entries.get(name),
          mode: () => String(c.user?.['minagent.chat.approval'] ?? 'readOnly'),
          trusted: () => true,
        },
        { get: (_k, d) => d, update: async () => undefined },
      );
      const editorRuns = c.calls.map((call, k) => {
        const entry = entries.get(call.server)!;
        const req: ApprovalRequest = {
          callId: String(k),
          name: call.tool,
          wireName: call.tool,
          server: call.server,
          remoteName: call.remote,
          serverIdentity: serverIdentity(entry),
          arguments: ARGS[call.tool],
          annotations: call.readOnly ? { readOnlyHint: true } : {},
          contextServers: call.reads,
        };
        return policy.preapproval(req) !== undefined;
      });

      assert.deepEqual(cliRuns, c.runs, `minagent chat: ${r.stdout}${r.stderr}`);
      assert.deepEqual(editorRuns, c.runs, "the editor's policy");
    });
  });
});
