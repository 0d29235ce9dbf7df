import type { AgentEvent, ApprovalRequest } from '../agentTypes/events';
import { pinOf, type ToolRegistry } from '../toolRegistry/toolRegistry';
import type { ToolCard } from '../../shared/protocol';
import type { Conversation } from './conversation/conversation';

/** What the early cards need of the turn's host. */
export interface EarlyCardsHost {
  registry: ToolRegistry;
  look?(name: string, server: string | undefined): { title?: string; app?: { resourceUri: string } };
  preapproval(req: ApprovalRequest): string | undefined;
}

/** How often a card's arguments are updated while the model writes them. */
const EVERY_MS = 100;

/**
 * Cards of tool calls with an MCP App that show while the model still writes their arguments
 * (`ui/notifications/tool-input-partial`): the card comes at the first piece, its arguments follow (at most every
 * 100 ms), and its app may show at once only when a rule of the user's already allows the call (the always and
 * for-this-chat rules; never the read-only one, which depends on what the model read, unknown here). The call's own
 * `tool_start` takes the card over (`adopt`); a card whose call never came (the answer was cut, the turn stopped) ends
 * cancelled (`leftovers`).
 */
export class EarlyCards {
  private readonly cards = new Map<string, { id: string; wireName: string; text: string; adopted: boolean }>();
  private readonly skipped = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly conversation: Conversation,
    private readonly host: EarlyCardsHost,
  ) {}

  /** A piece of a call's arguments. */
  input(e: Extract<AgentEvent, { type: 'tool_input' }>): void {
    if (this.skipped.has(e.call)) return;
    const known = this.cards.get(e.call);
    if (known) {
      if (known.adopted) return;
      known.text = e.text;
      this.timer ??= setTimeout(() => this.flush(), EVERY_MS);
      return;
    }
    const name = this.host.registry.resolve(e.wireName);
    const tool = name === undefined ? undefined : this.host.registry.get(name);
    const look = tool ? this.host.look?.(tool.name, tool.server) : undefined;
    if (!tool || !look?.app) return void this.skipped.add(e.call);
    // The user's own rules alone: a read-only call runs unasked only when the model read no other server, and which
    // servers it read is known only when the call comes.
    const allowed =
      this.host.preapproval({
        ...pinOf(tool),
        callId: 'early',
        wireName: e.wireName,
        arguments: {},
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        contextServers: ['(not known yet)'],
      }) !== undefined;
    const id = this.conversation.newId('t');
    const card: ToolCard = {
      callId: id,
      name: tool.name,
      ...(look.title ? { title: look.title.slice(0, 200) } : {}),
      app: { resourceUri: look.app.resourceUri, partial: true, ...(allowed ? { allowed: true as const } : {}) },
      wireName: e.wireName,
      ...(tool.server ? { server: tool.server } : {}),
      arguments: e.text,
      status: 'running',
      startedAt: Date.now(),
    };
    this.conversation.append({ kind: 'tool', id, card });
    this.cards.set(e.call, { id, wireName: e.wireName, text: e.text, adopted: false });
  }

  /** The card made early for a call of this tool, in the order they came, taken by the call now starting. */
  adopt(wireName: string): string | undefined {
    for (const early of this.cards.values()) {
      if (early.adopted || early.wireName !== wireName) continue;
      early.adopted = true;
      return early.id;
    }
    return undefined;
  }

  /** The cards whose call never came. */
  leftovers(): string[] {
    this.stop();
    return [...this.cards.values()].filter((c) => !c.adopted).map((c) => c.id);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.timer = undefined;
    for (const early of this.cards.values()) {
      if (early.adopted) continue;
      const item = this.conversation.find(early.id);
      if (item?.kind === 'tool' && item.card.arguments !== early.text)
        this.conversation.update({ ...item, card: { ...item.card, arguments: early.text } });
    }
  }
}
