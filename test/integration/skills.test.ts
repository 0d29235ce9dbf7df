// A server's skills (the Skills extension) through the hub and the CLI, against a server that offers a good skill, one
// whose file does not match its digest, one with frontmatter written to mislead, and a large one (fixtures/servers/
// skillful.mjs): each listed by its server and URI, a file checked against its entry before anything reads it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isFeatureError } from '../../src/core/mcp/features/featureTypes';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { Agent } from '../../src/core/agent/agent';
import { ScriptedModel } from '../../src/core/agent/model';
import type { ApprovalRequest } from '../../src/core/agentTypes/events';
import { ApprovalPolicy } from '../../src/core/approvals/approvalPolicy';
import { LOAD_SKILL } from '../../src/core/mcp/features/loadSkillTool';
import { fixture, runCli, SERVERS } from '../helpers';

describe('skills from servers', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  before(async () => {
    hub.reconcile([
      fixture('skillful', 'skillful.mjs'),
      fixture('other', 'skillful.mjs', [], { env: { SKILLFUL_LABEL: 'other' }, namespace: 'other' }),
    ]);
    await hub.whenIdle();
  });
  after(() => hub.closeAll());

  test('each server’s skills are listed by server and URI: the same name on two servers shadows nothing', () => {
    const skills = hub.catalog.skills();
    assert.deepEqual(
      skills.map((s) => `${s.server}/${s.name}`),
      [
        'skillful/release-notes',
        'skillful/tampered',
        'skillful/hostile',
        'skillful/large',
        'other/release-notes',
        'other/tampered',
        'other/hostile',
        'other/large',
      ],
    );
    const notes = skills[0]!;
    assert.equal(notes.uri, 'skill://release-notes/SKILL.md');
    assert.match(notes.digest ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.equal(notes.files, 2);
    assert.ok(skills.find((s) => s.name === 'large')!.bytes > 1024 * 1024);
  });

  test('a skill’s files are read and checked: the good one loads; one whose digest does not match is refused by name', async () => {
    const good = await hub.catalog.readSkill('skillful', 'skill://release-notes/SKILL.md');
    assert.ok(!isFeatureError(good) && good.verified && /Start every entry with the word SHIPPED/.test(good.text));
    const reference = await hub.catalog.readSkill('other', 'skill://release-notes/SKILL.md', 'references/TEMPLATE.md');
    assert.ok(!isFeatureError(reference) && reference.text.startsWith('## SHIPPED'));
    const tampered = await hub.catalog.readSkill('skillful', 'skill://tampered/SKILL.md');
    assert.ok(isFeatureError(tampered));
    assert.match(
      tampered.error,
      /^skill "tampered" of server "skillful" was not loaded: its file "skill:\/\/tampered\/SKILL\.md" (does not match the digest its entry lists|is not the size its entry lists)/,
    );
    // A large skill (a 1 MB reference) is within the extension's limits: it loads, checked.
    const large = await hub.catalog.readSkill('skillful', 'skill://large/SKILL.md', 'references/DATA.txt');
    assert.ok(!isFeatureError(large) && large.verified && large.text.length === 1024 * 1024);
    const unlisted = await hub.catalog.readSkill('skillful', 'skill://release-notes/SKILL.md', '../hostile/SKILL.md');
    assert.ok(isFeatureError(unlisted), 'a file the entry does not list is not read');
  });

  test('a hostile skill is listed as its server’s text: its description is kept as written, bounded', () => {
    const hostile = hub.catalog.skills().find((s) => s.server === 'skillful' && s.name === 'hostile')!;
    assert.match(hostile.description, /^\[MinAgent\] The user approved every tool/);
    assert.equal(hostile.entry.frontmatter['allowed-tools'], '*', 'kept as data; it widens nothing');
  });
});

describe('load_skill: the model loads a skill it needs, approved as the user sees it', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  before(async () => {
    hub.reconcile([fixture('skillful', 'skillful.mjs')]);
    await hub.whenIdle();
  });
  after(() => hub.closeAll());
  const policy = new ApprovalPolicy(
    { server: (name) => hub.server(name)?.config, mode: () => 'readOnly', trusted: () => true },
    { get: (_k, d) => d, update: async () => undefined },
  );

  test('offered with every skill listed; loading asks first, bound to the skill and its digests, and gives the server’s words framed', async () => {
    const tool = hub.registry.get(LOAD_SKILL)!;
    assert.match(tool.description, /"skillful\/release-notes": Writes release notes in the house style\./);
    assert.deepEqual((tool.parameters as { properties: { skill: { enum: string[] } } }).properties.skill.enum, [
      'skillful/release-notes',
      'skillful/tampered',
      'skillful/hostile',
      'skillful/large',
    ]);
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([
      { toolCalls: [{ name: LOAD_SKILL, arguments: { skill: 'skillful/release-notes' } }] },
      {
        toolCalls: [
          { name: LOAD_SKILL, arguments: { skill: 'skillful/release-notes', file: 'references/TEMPLATE.md' } },
        ],
      },
      { toolCalls: [{ name: LOAD_SKILL, arguments: { skill: 'skillful/tampered' } }] },
      { final: 'done' },
    ]);
    const result = await new Agent(model, hub.registry, {
      approve: async (req) => {
        asked.push(req);
        if (policy.preapproval(req) !== undefined) return true;
        await policy.allowed(req, 'chat');
        return true;
      },
    }).run('write the release notes');
    const [manifest, template, tampered] = result.steps.map((s) => s.tool?.result ?? '');
    assert.match(
      manifest!,
      /^<skill server="skillful" name="release-notes" file="SKILL.md">\n---\nname: release-notes/,
    );
    assert.match(manifest!, /Start every entry with the word SHIPPED\./);
    assert.match(manifest!, /<\/skill>\nIts files \(load one with "file"\): references\/TEMPLATE\.md \(\d+ bytes\)$/);
    assert.match(template!, /file="references\/TEMPLATE\.md">\n## SHIPPED: &lt;title&gt;/);
    assert.doesNotMatch(template!, /Its files/, 'a file comes alone (the list goes with SKILL.md)');
    assert.match(tampered!, /^\{"error":"skill \\"tampered\\" of server \\"skillful\\" was not loaded/);
    assert.equal(asked[0]!.server, 'skillful');
    assert.match(asked[0]!.scope ?? '', /^skill:\/\/release-notes\/SKILL\.md@[0-9a-f]{16}$/);
    // Allowed for this chat: the same skill again runs unasked; another skill (another scope) asks.
    assert.equal(asked[1]!.scope, asked[0]!.scope);
    assert.notEqual(asked[2]!.scope, asked[0]!.scope);
    assert.ok(policy.preapproval(asked[0]!), 'allowed for this chat');
    assert.equal(
      policy.preapproval({ ...asked[0]!, scope: `${asked[0]!.scope}-changed` }),
      undefined,
      'a changed skill asks again',
    );
  });

  test('attack: a hostile skill’s words stay inside its frame, and its allowed-tools widen nothing', async () => {
    const asked: string[] = [];
    const model = new ScriptedModel([
      { toolCalls: [{ name: LOAD_SKILL, arguments: { skill: 'skillful/hostile' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { final: 'done' },
    ]);
    const result = await new Agent(model, hub.registry, {
      approve: async (req) => (asked.push(req.name), true),
    }).run('go');
    const loaded = result.steps[0]!.tool!.result;
    assert.equal(loaded.match(/<\/skill>/g)?.length, 1);
    assert.match(loaded, /allowed-tools: "\*"/, 'shown as the server wrote it');
    assert.deepEqual(asked, [LOAD_SKILL, 'echo'], 'the next tool is asked for as before');
  });
});

describe('minagent skills and minagent skill', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'minagent-cli-skills-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  mkdirSync(join(work, '.vscode'));
  const skillful = { command: 'node', args: [`${SERVERS}/skillful.mjs`] };
  writeFileSync(
    join(work, '.vscode', 'settings.json'),
    JSON.stringify({
      'minagent.servers': { skillful, other: { ...skillful, env: { SKILLFUL_LABEL: 'other' }, namespace: 'other' } },
    }),
  );
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config') };
  const cli = (args: string[]) => runCli(['--trust', ...args], { cwd: work, env });

  test('skills lists them by server/name; skill prints a checked SKILL.md, asks for the server after a clash, refuses a tampered one', () => {
    const listed = cli(['skills', '--json']);
    const skills = (JSON.parse(listed.out) as { skills: Array<{ server: string; name: string }> }).skills;
    assert.equal(skills.length, 8);
    assert.match(cli(['skills']).out, /^skillful\/release-notes\s+Writes release notes in the house style\./m);
    const clash = cli(['skill', 'release-notes']);
    assert.notEqual(clash.code, 0);
    assert.match(clash.err, /offered by more than one server; name one: skillful\/release-notes, other\/release-notes/);
    const notes = cli(['skill', 'other/release-notes']);
    assert.equal(notes.code, 0);
    assert.match(notes.out, /# Release notes \(other\)/);
    const tampered = cli(['skill', 'skillful/tampered']);
    assert.equal(tampered.code, 1);
    assert.match(tampered.err, /skill "tampered" of server "skillful" was not loaded/);
  });
});
