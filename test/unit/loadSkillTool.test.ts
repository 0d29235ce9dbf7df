// load_skill bounds what servers put before the model: at most 20 skills of one server and 100 in all in its
// description, and a skill file cut as any result is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LISTED_SKILLS, loadSkillTool } from '../../src/core/mcp/features/loadSkillTool';
import type { McpSkill } from '../../src/core/mcp/features/skills';

const skill = (server: string, name: string): McpSkill => {
  const uri = `skill://${name}/SKILL.md`;
  return {
    server,
    uri,
    name,
    description: `does ${name}`,
    digest: `sha256:${'0'.repeat(64)}`,
    files: 1,
    bytes: 10,
    entry: {
      uri,
      frontmatter: { name, description: `does ${name}` },
      resources: [{ uri, digest: `sha256:${'0'.repeat(64)}`, size: 10 }],
    },
  };
};

test('attack: a server that offers a hundred skills puts twenty before the model; the others’ skills are still offered', () => {
  const stuffing = Array.from({ length: 100 }, (_, i) => skill('stuffing', `s${i}`));
  const tool = loadSkillTool(
    'load_skill',
    [...stuffing, skill('honest', 'release-notes')],
    async () => ({ error: 'x' }),
    () => 1000,
  );
  const ids = (tool.parameters as { properties: { skill: { enum: string[] } } }).properties.skill.enum;
  assert.equal(ids.filter((id) => id.startsWith('stuffing/')).length, LISTED_SKILLS.perServer);
  assert.ok(ids.includes('honest/release-notes'));
  assert.match(tool.description, /\(80 more not offered: too many\)\.$/);
});

test('a large skill file is cut as any result is', async () => {
  const big = skill('s', 'big');
  const tool = loadSkillTool(
    'load_skill',
    [big],
    async () => ({ uri: big.uri, text: 'x'.repeat(100_000), verified: true }),
    () => 1000,
  );
  const result = await tool.call({ skill: 's/big' });
  const text = typeof result === 'string' ? result : result.text;
  assert.ok(text.length < 2_000, `${text.length} characters`);
  assert.match(text, /\[truncated: 99000 of 100000 characters cut\]/);
});

test('where it asks, a load says what it loads: the file, the skill, its server, its files and digest', () => {
  const notes = skill('library', 'notes');
  const tool = loadSkillTool(
    'load_skill',
    [notes],
    async () => ({ error: 'x' }),
    () => 1000,
  );
  assert.equal(
    tool.describeCall?.({ skill: 'library/notes' }),
    'Loads its SKILL.md of skill "notes" from server "library" (1 file, 10 bytes, sha256:00000000…).',
  );
  assert.match(tool.describeCall?.({ skill: 'library/notes', file: 'a.md' }) ?? '', /^Loads its file "a\.md" of skill/);
});
