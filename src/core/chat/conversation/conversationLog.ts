// One conversation's file: JSON lines, appended as the conversation changes; a later line for an
// item replaces an earlier one, so replaying the file gives the conversation back.
import type { ChatMessage } from '../../agentTypes/messages';
import type { TranscriptItem } from '../../../shared/protocol';
import { isTranscriptItem } from '../../../shared/validate';
import type { Conversation } from './conversation';

/** One line of a conversation file. */
type Line =
  | { h: { id: string; createdAt: number } }
  | { i: TranscriptItem }
  /** An item taken out of the transcript (a message that was not sent). */
  | { x: string }
  | { m: number; l: ChatMessage[] }
  | { r: string; t: string };

type Changes = ReturnType<Conversation['takeChanges']>;

/** What a conversation file holds, replayed. */
export interface Replayed {
  createdAt: number;
  items: TranscriptItem[];
  messages: ChatMessage[];
  results: Map<string, string>;
  /** Lines that could not be read (cut by a crash mid-write, or not a transcript item) and were skipped. */
  bad: number;
}

/** The text to append for a conversation's changes since its last save. */
export function changesText(changes: Changes): string {
  const lines: Line[] = [
    ...changes.items.map((i) => ({ i })),
    ...changes.removed.map((x) => ({ x })),
    ...changes.results.map(([r, t]) => ({ r, t })),
  ];
  if (changes.messages) lines.push({ m: changes.messages.from, l: changes.messages.list });
  return text(lines);
}

/** The whole file for a conversation's state (a first write, or a rewrite). */
export function stateText(c: Conversation): string {
  return text([
    { h: { id: c.id, createdAt: c.createdAt } },
    ...c.items.map((i) => ({ i })),
    ...c.allResults().map(([r, t]) => ({ r, t })),
    { m: 0, l: [...c.messages] },
  ]);
}

function text(lines: Line[]): string {
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** Replays a conversation file: later lines for an item replace earlier ones. */
export function replay(text: string): Replayed {
  const items = new Map<string, TranscriptItem>();
  let messages: ChatMessage[] = [];
  const results = new Map<string, string>();
  let createdAt = Date.now();
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    let r: Line;
    try {
      r = JSON.parse(line) as Line;
    } catch {
      bad++; // a line cut by a crash mid-write
      continue;
    }
    if ('i' in r) {
      if (isTranscriptItem(r.i)) items.set(r.i.id, r.i);
      else bad++;
    } else if ('x' in r && typeof r.x === 'string') items.delete(r.x);
    else if ('m' in r && Array.isArray(r.l)) messages = [...messages.slice(0, r.m), ...r.l];
    else if ('r' in r && typeof r.t === 'string') results.set(r.r, r.t);
    else if ('h' in r) createdAt = r.h.createdAt;
  }
  return { createdAt, items: [...items.values()], messages, results, bad };
}
