// A server's skills (the Skills extension, io.modelcontextprotocol/skills): instructions with files a model loads
// when a task needs them. Listed per server through the SDK's SkillsClient, which checks each entry and, on a read,
// each file's listing, size and digest (and SKILL.md's frontmatter against its entry). Everything a skill says is
// its server's text.
import type { Client } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { FeatureError } from './featureTypes';
import type { ListProblem } from './paging';

/** Longest skill name and description kept (a description is what the model is offered to choose by). */
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1_024;

/** One skill a server offers, addressed by its server and its SKILL.md URI. */
export interface McpSkill {
  server: string;
  uri: string;
  name: string;
  description: string;
  /** SKILL.md's digest (`sha256:…`), which an approval to load it is bound to; absent for a "dynamic" skill. */
  digest?: string;
  /** Its files and their bytes, as listed (0 for a "dynamic" skill). */
  files: number;
  bytes: number;
  /** The entry as the server listed it, to read its files by. */
  entry: Skill;
}

/** A skill's file, read and checked against its entry. */
export interface SkillText {
  uri: string;
  text: string;
  /** Size and digest were checked (false only for a "dynamic" skill). */
  verified: boolean;
}

/** The skills a connected server offers (none when it does not declare the extension); a refused entry is a problem. */
export async function listSkills(client: Client, server: string, problems: ListProblem[]): Promise<McpSkill[]> {
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return [];
  try {
    const listing = await skills.list();
    for (const bad of listing.invalid)
      problems.push({
        server,
        item: bad.uri ?? `#${bad.index + 1}`,
        message: `server "${server}" listed skill ${bad.uri ? JSON.stringify(bad.uri) : `#${bad.index + 1}`} that was refused: ${bad.reason}`,
      });
    return listing.skills.map((entry) => skillOf(server, entry));
  } catch (err) {
    problems.push({ server, item: '', message: `server "${server}" failed to list its skills: ${errorMessage(err)}` });
    return [];
  }
}

function skillOf(server: string, entry: Skill): McpSkill {
  const listed = entry.resources === 'dynamic' ? [] : entry.resources;
  const manifest = listed.find((r) => r.uri === entry.uri);
  return {
    server,
    uri: entry.uri,
    name: String(entry.frontmatter.name).slice(0, MAX_NAME),
    description: String(entry.frontmatter.description).slice(0, MAX_DESCRIPTION),
    ...(manifest ? { digest: manifest.digest } : {}),
    files: listed.length,
    bytes: listed.reduce((sum, r) => sum + r.size, 0),
    entry,
  };
}

/**
 * Reads one file of a skill (its SKILL.md by default, else `ref`: a path in the skill or a listed URI) and checks it
 * against the entry: a file that is not listed, or whose size, digest or frontmatter differs, is refused by name.
 */
export async function readSkillFile(client: Client, skill: McpSkill, ref?: string): Promise<SkillText | FeatureError> {
  try {
    const file = await new SkillsClient(client).read(skill.entry, ref);
    const text = file.text ?? new TextDecoder('utf-8', { fatal: false }).decode(file.bytes);
    return { uri: file.uri, text, verified: file.verified };
  } catch (err) {
    if (err instanceof SkillVerificationError) {
      const how = err.differences.length ? ` (${err.differences.join('; ')})` : '';
      const file = `its file ${JSON.stringify(err.uri)} ${VERIFY_WORDS[err.reason]}${how}`;
      return { error: `skill "${skill.name}" of server "${skill.server}" was not loaded: ${file}` };
    }
    return { error: `reading skill "${skill.name}" of server "${skill.server}" failed: ${errorMessage(err)}` };
  }
}

const VERIFY_WORDS: Record<SkillVerificationError['reason'], string> = {
  unlisted: 'is not among the files its entry lists',
  size: 'is not the size its entry lists',
  digest: 'does not match the digest its entry lists',
  frontmatter: "has other frontmatter than its entry's",
};
