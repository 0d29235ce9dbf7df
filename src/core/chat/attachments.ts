import type { TokenCounter } from '../budget/tokens';
import { Emitter, type Disposable } from '../base/event';
import { isFeatureError, type FeatureError, type ReadResourceResult } from '../mcp/features/featureTypes';
import { formatReadResult } from '../mcp/features/resources';
import type { AttachmentChip } from '../../shared/protocol';

/** An MCP App's page (its `ui://` HTML): the app's, shown in a tool's card, never a document to attach. */
export function isAppPage(uri: string): boolean {
  return /^ui:/i.test(uri.trim());
}

/** The resources Add to Chat offers: all a server lists but its apps' pages. */
export function attachableResources<T extends { uri: string }>(resources: readonly T[]): T[] {
  return resources.filter((r) => !isAppPage(r.uri));
}

/** At most this many resources wait for the next message. */
export const MAX_ATTACHMENTS = 20;

interface Attached {
  chip: AttachmentChip;
  /** The resource as the model gets it (the same form read_resource gives). */
  text: string;
}

/** What the next message carries besides its text. */
export interface TakenContext {
  /** Put before the user's text in the model's message. */
  context: string;
  /** Shown on the user's message in the transcript. */
  labels: string[];
  /** What was taken, so a message that was not sent gives it back (see giveBack). */
  readonly taken?: readonly Attached[];
}

export interface AttachmentHost {
  read(server: string, uri: string): Promise<ReadResourceResult | FeatureError>;
  /** The selected model's counter (the budget's tokenizer), for the chip's size. */
  counter(): Promise<TokenCounter>;
  /** Most characters of one resource given to the model. */
  maxChars(): number;
}

/**
 * Resources attached to the next chat message. A resource is read when attached, so its chip shows
 * what will be sent (its size in tokens, by the budget's counter); sending takes them all, remove
 * (x) takes one back. The model gets each in the same faithful form as read_resource's result.
 */
export class Attachments implements Disposable {
  private readonly items: Attached[] = [];
  private nextId = 1;
  private readonly onDidChangeEmitter = new Emitter<void>();
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(private readonly host: AttachmentHost) {}

  chips(): AttachmentChip[] {
    return this.items.map((i) => i.chip);
  }

  /** Reads and attaches a resource; resolves to the error when it cannot be read (or is an app's page). */
  async add(server: string, uri: string, label: string): Promise<FeatureError | undefined> {
    if (isAppPage(uri))
      return {
        error: `${uri.slice(0, 200)} is an app's page (MCP Apps), not a document: its app shows it in a tool's card`,
      };
    if (this.items.some((i) => i.chip.server === server && i.chip.uri === uri)) return undefined;
    if (this.items.length >= MAX_ATTACHMENTS)
      return { error: `at most ${MAX_ATTACHMENTS} resources can be attached to one message` };
    const result = await this.host.read(server, uri);
    if (isFeatureError(result)) return result;
    const text = formatReadResult(result, this.host.maxChars());
    const counter = await this.host.counter();
    const tokens = await counter.count(text);
    if (this.items.some((i) => i.chip.server === server && i.chip.uri === uri)) return undefined;
    this.items.push({
      chip: { id: `r${this.nextId++}`, server, uri, label: label.slice(0, 200), tokens, exact: counter.exact },
      text,
    });
    this.onDidChangeEmitter.fire();
    return undefined;
  }

  remove(id: string): void {
    const i = this.items.findIndex((a) => a.chip.id === id);
    if (i < 0) return;
    this.items.splice(i, 1);
    this.onDidChangeEmitter.fire();
  }

  /** What the next message would carry (the budget meter measures it), without taking it. */
  peek(): TakenContext | undefined {
    if (!this.items.length) return undefined;
    return {
      context: `The user attached ${this.items.length === 1 ? 'this resource' : 'these resources'} as context:\n${this.items.map((i) => i.text).join('\n')}\n[end of attached resources]`,
      labels: this.items.map((i) => `${i.chip.label} (${i.chip.server})`),
    };
  }

  /** Takes everything attached, for the message being sent. */
  take(): TakenContext | undefined {
    const peeked = this.peek();
    if (!peeked) return undefined;
    const taken = this.items.splice(0);
    this.onDidChangeEmitter.fire();
    return { ...peeked, taken };
  }

  /** Attaches again what a message that was not sent had taken (before anything attached since). */
  giveBack(context: TakenContext | undefined): void {
    const back = (context?.taken ?? []).filter(
      (a) => !this.items.some((i) => i.chip.server === a.chip.server && i.chip.uri === a.chip.uri),
    );
    if (!back.length) return;
    this.items.unshift(...back.slice(0, Math.max(0, MAX_ATTACHMENTS - this.items.length)));
    this.onDidChangeEmitter.fire();
  }

  dispose(): void {
    this.onDidChangeEmitter.dispose();
  }
}

/** The model's message: the attached context, then what the user typed. */
export function withContext(text: string, taken: TakenContext | undefined): string {
  return taken ? `${taken.context}\n\n${text}` : text;
}
