import { createHash } from 'node:crypto';
import { framed } from '../../base/framedText';
import { truncate } from '../../base/text';
import type { Tool } from '../../toolRegistry/toolRegistry';
import { failed, succeeded } from '../../toolRegistry/toolResult';
import { isFeatureError, type FeatureError } from './featureTypes';
import type { McpSkill, SkillText } from './skills';

export const LOAD_SKILL = 'load_skill';

/** Longest description of a skill in the tool's own description (what the model chooses by; the budget counts it). */
const LISTED_DESCRIPTION = 200;
/** Most skills one server may put before the model, and most in all: a server cannot fill the context with skills. */
export const LISTED_SKILLS = { perServer: 20, total: 100 } as const;

/** A skill's id for the model and the user: its server and its name. */
export const skillId = (s: McpSkill) => `${s.server}/${s.name}`;

/**
 * The built-in tool that loads a skill a server offers: its SKILL.md (or one of its listed files) read, checked against
 * the skill's entry, and given to the model as that server's words. It exists only while some server offers skills,
 * lists them in its description (so the budget meter and deferral count them as any tool), and is approved like any
 * tool, each approval bound to the skill and the digests of its files: a skill that changed asks again. A skill's
 * `allowed-tools` widens nothing.
 */
export function loadSkillTool(
  name: string,
  all: readonly McpSkill[],
  read: (skill: McpSkill, ref?: string) => Promise<SkillText | FeatureError>,
  maxChars: () => number,
): Tool {
  const skills = offered(all);
  const byId = new Map(skills.map((s) => [skillId(s), s]));
  const more = all.length - skills.length;
  const listing = skills
    .map((s) => `"${skillId(s)}": ${s.description.slice(0, LISTED_DESCRIPTION).replace(/\s+/g, ' ')}`)
    .join('; ');
  const pick = (args: Record<string, unknown>) => (typeof args.skill === 'string' ? byId.get(args.skill) : undefined);
  return {
    name,
    description: `Load a skill: instructions, with files they point to, that an MCP server offers for a kind of task. Load one only when the task needs it; then load a file it names with "file". Skills (server/name: what it is for): ${listing}${more ? ` (${more} more not offered: too many)` : ''}.`,
    parameters: {
      type: 'object',
      properties: {
        skill: { type: 'string', enum: [...byId.keys()], description: 'The skill, as server/name.' },
        file: {
          type: 'string',
          description:
            "A file of the skill to load, by its path in the skill (e.g. references/GUIDE.md); absent: the skill's SKILL.md.",
        },
      },
      required: ['skill'],
      additionalProperties: false,
    },
    targetServer: (args) => pick(args)?.server,
    describeCall: (args) => {
      const skill = pick(args);
      if (!skill) return undefined;
      const file =
        typeof args.file === 'string' && args.file ? `its file ${JSON.stringify(args.file)}` : 'its SKILL.md';
      const digest = skill.digest ? `, ${skill.digest.slice(0, 15)}…` : '';
      const files = `${skill.files} file${skill.files === 1 ? '' : 's'}`;
      return `Loads ${file} of skill ${JSON.stringify(skill.name)} from server "${skill.server}" (${files}, ${skill.bytes} bytes${digest}).`;
    },
    approvalScope: (args) => {
      const skill = pick(args);
      return skill ? `${skill.uri}@${entryDigest(skill)}` : undefined;
    },
    call: async (args, options) => {
      const skill = pick(args);
      if (!skill)
        return failed(`${name} needs "skill", one of: ${[...byId.keys()].join(', ') || '(no server offers skills)'}`);
      const file = typeof args.file === 'string' && args.file ? args.file : undefined;
      const text = await read(skill, file);
      if (isFeatureError(text)) return failed(text.error, options?.signal?.aborted ? 'cancelled' : 'error');
      // With its SKILL.md, the skill's other files, to load one when its text points to it.
      const others =
        file !== undefined || skill.entry.resources === 'dynamic'
          ? []
          : skill.entry.resources.filter((r) => r.uri !== skill.uri);
      const files = others.length
        ? `\nIts files (load one with "file"): ${others.map((r) => `${relative(skill, r.uri)} (${r.size} bytes)`).join(', ')}`
        : '';
      // Cut as any result is (minagent.maxOutputChars): a large skill file does not flood the context.
      const body = truncate(text.text, maxChars());
      return succeeded(
        `${framed('skill', { server: skill.server, name: skill.name, file: relative(skill, text.uri) }, body)}${files}`,
      );
    },
  };
}

/** The skills put before the model: at most LISTED_SKILLS.perServer of each server, LISTED_SKILLS.total in all. */
function offered(all: readonly McpSkill[]): McpSkill[] {
  const perServer = new Map<string, number>();
  return all
    .filter((s) => {
      const n = (perServer.get(s.server) ?? 0) + 1;
      perServer.set(s.server, n);
      return n <= LISTED_SKILLS.perServer;
    })
    .slice(0, LISTED_SKILLS.total);
}

/** One digest for all of a skill's files as its entry lists them: any change of any file changes it. */
export function entryDigest(skill: McpSkill): string {
  const listed =
    skill.entry.resources === 'dynamic' ? 'dynamic' : skill.entry.resources.map((r) => `${r.uri} ${r.digest}`);
  return createHash('sha256').update(JSON.stringify(listed)).digest('hex').slice(0, 16);
}

/** A file's path in its skill (the part of its URI after the skill's folder). */
function relative(skill: McpSkill, uri: string): string {
  const root = skill.uri.replace(/SKILL\.md$/, '');
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
}
