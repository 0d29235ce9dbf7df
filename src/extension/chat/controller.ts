import * as vscode from 'vscode';
import { Agent, type AgentEvent, type ApprovalRequest, type Step } from '../../core/agent/agent';
import type { ServerHub } from '../../core/mcp/hub';
import type { ToolSchema } from '../../core/tools';
import { offeredTools, type ToolSwitches } from '../../core/toolSwitches';
import { VIEW_RESULT_CHARS, type ChatState, type HostMessage, type ToolCard, type TranscriptItem, type WebviewMessage } from '../../shared/protocol';
import type { Approvals } from './approvals';
import type { BudgetMeter } from './budgetMeter';
import { SETUP_HINT, type ModelChoices } from './models';
import type { ChatSession } from './session';

/** Raster images only (an SVG could carry script), at most about 1.5 MB each. */
const SHOWN_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const MAX_IMAGE_CHARS = 2_000_000;
const DEFAULT_SYSTEM =
  'You are MinAgent, an assistant inside VS Code. Use the available tools when they help answer; they come from MCP servers the user configured. Say which tool you used.';

type Post = (message: HostMessage) => void;

/**
 * Runs agent turns for the chat views (sidebar and editor panel share one conversation) and keeps
 * every view in step: cards for each tool call, streamed text, approvals, Stop.
 */
export class ChatController implements vscode.Disposable {
  private readonly views = new Set<Post>();
  private abort: AbortController | undefined;
  /** Transcript item id of each tool call of the running turn, by the agent's call id. */
  private cards = new Map<string, string>();

  constructor(
    private readonly hub: ServerHub,
    private readonly session: ChatSession,
    private readonly models: ModelChoices,
    private readonly approvals: Approvals,
    private readonly log: vscode.LogOutputChannel,
    private readonly switches: ToolSwitches,
    private readonly meter: BudgetMeter,
  ) {
    // Budget hook: the meter measures the conversation as the next turn would send it.
    meter.connect((m) => this.broadcast(m), {
      model: () => this.models.create(),
      system: () => this.systemPrompt(),
      history: () => this.session.messages,
      tools: () => {
        const offered = new Set(this.toolsForModel().map((t) => t.name));
        const schemas = this.hub.registry.schemas();
        return this.hub.registry.list().map((t, i) => ({ server: t.server ?? '', schema: schemas[i]!, offered: offered.has(schemas[i]!.name) }));
      },
    });
  }

  attach(post: Post): vscode.Disposable {
    this.views.add(post);
    return { dispose: () => this.views.delete(post) };
  }

  get busy(): boolean {
    return this.abort !== undefined;
  }

  async handle(message: WebviewMessage, post: Post): Promise<void> {
    let error: string | undefined;
    try {
      switch (message.type) {
        case 'ready':
          await this.models.refresh();
          post({ type: 'state', state: this.state() });
          void this.meter.update();
          break;
        case 'draft':
          this.meter.setDraft(message.text);
          break;
        case 'send':
          void this.run(message.text);
          break;
        case 'stop':
          this.stop();
          break;
        case 'approve':
          this.approvals.decide(message.callId, message.decision);
          break;
        case 'newChat':
          await this.newChat();
          break;
        case 'export':
          await this.exportMarkdown();
          break;
        case 'selectModel':
          await this.models.select(message.id);
          void this.meter.update();
          break;
        case 'openResult':
          await this.openResult(message.callId);
          break;
        case 'chooseTools':
          await this.chooseTools();
          break;
        case 'setupModel':
          await vscode.commands.executeCommand('minagent.setupModel');
          break;
      }
    } catch (err) {
      error = (err as Error).message;
      this.log.error(`chat: ${error}`);
    }
    post({ type: 'reply', requestId: message.requestId, ...(error ? { error } : {}) });
  }

  state(): ChatState {
    const models = this.models.list();
    const selected = this.models.selected();
    const warning = this.toolWarning();
    return {
      items: this.session.items,
      busy: this.busy,
      models,
      ...(selected ? { selectedModel: selected } : {}),
      ...(models.length ? {} : { setupHint: SETUP_HINT }),
      ...(warning ? { toolWarning: warning } : {}),
    };
  }

  private refreshAfterTurn = false;

  /** Re-sends the whole state, e.g. after settings or the tool list changed; waits for a running turn. */
  async refresh(): Promise<void> {
    if (this.busy) {
      this.refreshAfterTurn = true;
      return;
    }
    await this.models.refresh();
    this.broadcast({ type: 'state', state: this.state() });
  }

  stop(): void {
    this.abort?.abort();
  }

  async newChat(): Promise<void> {
    this.stop();
    this.session.clear();
    this.approvals.newChat();
    await this.session.save();
    this.broadcast({ type: 'state', state: this.state() });
  }

  async run(text: string): Promise<void> {
    if (this.busy) return;
    this.append({ kind: 'user', id: this.session.newId('u'), text });
    let model;
    try {
      model = await this.models.create();
    } catch (err) {
      this.append({ kind: 'notice', id: this.session.newId('n'), level: 'error', text: (err as Error).message });
      await this.session.save();
      return;
    }
    const abort = new AbortController();
    this.abort = abort;
    this.cards.clear();
    this.broadcast({ type: 'busy', busy: true });
    let streaming: Extract<TranscriptItem, { kind: 'assistant' }> | undefined;
    const config = vscode.workspace.getConfiguration('minagent.chat');
    const agent = new Agent(model, this.hub.registry, {
      system: this.systemPrompt(),
      maxSteps: config.get<number>('maxSteps', 20),
      approve: (req, signal) => this.approve(req, signal),
      tools: () => this.toolsForModel(),
      whyUnavailable: (name) => {
        const tool = this.hub.registry.get(name);
        return tool && this.switches.whyOff(tool);
      },
    });
    const onEvent = (e: AgentEvent) => {
      switch (e.type) {
        case 'text':
          if (!streaming) {
            streaming = { kind: 'assistant', id: this.session.newId('a'), text: '', streaming: true };
            this.append(streaming);
          }
          streaming.text += e.delta;
          this.broadcast({ type: 'textDelta', id: streaming.id, delta: e.delta });
          break;
        case 'notice':
          this.append({ kind: 'notice', id: this.session.newId('n'), level: 'warning', text: e.message });
          break;
        case 'tool_start':
          this.endStreaming(streaming);
          streaming = undefined;
          this.startCard(e);
          break;
        case 'tool_progress':
          this.updateCard(this.cards.get(e.callId) ?? '', (c) => ({ ...c, progress: { progress: e.progress, ...(e.total !== undefined ? { total: e.total } : {}), ...(e.message !== undefined ? { message: e.message } : {}) } }));
          break;
        case 'step':
          if (e.step.kind === 'tool_call' && e.step.tool) this.finishCard(e.step.tool);
          if (e.step.kind === 'error') {
            const stopped = e.step.detail === 'cancelled';
            this.append({ kind: 'notice', id: this.session.newId('n'), level: stopped ? 'info' : 'error', text: stopped ? 'Stopped.' : e.step.detail });
          }
          break;
      }
    };
    try {
      const result = await agent.run(text, { signal: abort.signal, history: this.session.messages, onEvent });
      this.session.messages = result.messages;
    } catch (err) {
      this.append({ kind: 'notice', id: this.session.newId('n'), level: 'error', text: `unexpected error: ${(err as Error).message}` });
    } finally {
      this.endStreaming(streaming);
      for (const id of this.cards.values()) {
        const item = this.session.find(id);
        if (item?.kind === 'tool' && (item.card.status === 'running' || item.card.status === 'waiting')) this.replace({ ...item, card: { ...item.card, status: 'cancelled' } });
      }
      this.abort = undefined;
      this.broadcast({ type: 'busy', busy: false });
      await this.session.save();
      if (this.refreshAfterTurn) {
        this.refreshAfterTurn = false;
        await this.refresh();
      }
    }
  }

  private async approve(req: ApprovalRequest, signal?: AbortSignal): Promise<boolean> {
    if (this.approvals.isPreapproved(req)) return true;
    const id = this.cards.get(req.callId);
    if (id) this.updateCard(id, (c) => ({ ...c, status: 'waiting' }));
    // The webview answers with the card's id.
    const allowed = await this.approvals.ask({ ...req, callId: id ?? req.callId }, signal);
    if (id) this.updateCard(id, (c) => ({ ...c, status: allowed ? 'running' : 'denied' }));
    return allowed;
  }

  private startCard(e: Extract<AgentEvent, { type: 'tool_start' }>): void {
    const id = this.session.newId('t');
    this.cards.set(e.callId, id);
    const card: ToolCard = {
      callId: id,
      name: e.name,
      wireName: e.wireName,
      ...(e.server ? { server: e.server } : {}),
      arguments: typeof e.arguments === 'string' ? e.arguments : (JSON.stringify(e.arguments, null, 2) ?? '{}'),
      status: 'running',
      startedAt: Date.now(),
    };
    this.append({ kind: 'tool', id, card });
  }

  private finishCard(tool: NonNullable<Step['tool']>): void {
    const id = this.cards.get(tool.callId);
    if (!id) return;
    this.session.setFullResult(id, tool.result);
    const status: ToolCard['status'] = tool.result === '{"error":"cancelled"}' ? 'cancelled' : tool.result.startsWith('{"error":"the user denied') ? 'denied' : tool.isError ? 'error' : 'done';
    const shown = tool.result.length > VIEW_RESULT_CHARS ? tool.result.slice(0, VIEW_RESULT_CHARS) : tool.result;
    this.updateCard(id, (c) => {
      const { progress: _progress, ...rest } = c;
      const images = tool.images.filter((i) => SHOWN_IMAGE.test(i.mimeType) && i.data.length <= MAX_IMAGE_CHARS).slice(0, 4);
      return { ...rest, status, result: shown, resultChars: tool.result.length, durationMs: tool.durationMs, ...(images.length ? { images } : {}) };
    });
  }

  private updateCard(id: string, fn: (c: ToolCard) => ToolCard): void {
    const item = this.session.find(id);
    if (item?.kind === 'tool') this.replace({ ...item, card: fn(item.card) });
  }

  private endStreaming(item: Extract<TranscriptItem, { kind: 'assistant' }> | undefined): void {
    if (item?.streaming) this.replace({ ...item, streaming: false });
  }

  private append(item: TranscriptItem): TranscriptItem {
    this.session.add(item);
    this.broadcast({ type: 'append', item });
    return item;
  }

  private replace(item: TranscriptItem): void {
    this.session.replace(item);
    this.broadcast({ type: 'update', item });
  }

  private broadcast(message: HostMessage): void {
    for (const post of this.views) post(message);
    // Budget hook: what the next request costs changes with the state and after every turn.
    if (message.type === 'state' || (message.type === 'busy' && !message.busy)) void this.meter.update();
  }

  private systemPrompt(): string {
    return vscode.workspace.getConfiguration('minagent.chat').get<string>('systemPrompt') || DEFAULT_SYSTEM;
  }

  private maxTools(): number {
    return vscode.workspace.getConfiguration('minagent.chat').get<number>('maxTools', 128);
  }

  /** The tools the model is sent: those switched on (Tools tree or the chooser), at most maxTools. */
  toolsForModel(): ToolSchema[] {
    return offeredTools(this.hub.registry, this.switches, this.maxTools()).offered.map((t) => t.schema);
  }

  private toolWarning(): string | undefined {
    const max = this.maxTools();
    const { on, total } = offeredTools(this.hub.registry, this.switches, max);
    if (on <= max) return undefined;
    return `${on} tools are switched on but models accept at most ${max} ("minagent.chat.maxTools"): the first ${max} are sent, ${on - max} ${on - max === 1 ? 'is' : 'are'} left out${total > on ? ` (${total - on} more are switched off)` : ''}. Choose which, or switch servers off in the Tools view.`;
  }

  /** The chooser past maxTools: what is picked is switched on, the rest off (the Tools tree shows the same). */
  private async chooseTools(): Promise<void> {
    const sent = new Set(this.toolsForModel().map((t) => this.hub.registry.resolve(t.name)));
    const tools = this.hub.registry.list().filter((t) => !t.server || this.switches.serverOn(t.server));
    const items = tools.map((t) => ({ label: t.name, description: t.server, detail: t.description, picked: sent.has(t.name) }));
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: `MinAgent: tools sent to the model (at most ${this.maxTools()})`, matchOnDescription: true });
    if (!picked) return;
    await this.switches.choose(tools, new Set(picked.map((p) => p.label)));
    this.broadcast({ type: 'state', state: this.state() });
  }

  private async openResult(itemId: string): Promise<void> {
    const text = this.session.fullResult(itemId);
    if (text === undefined) return;
    const doc = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async exportMarkdown(): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ content: this.session.toMarkdown(), language: 'markdown' });
    await vscode.window.showTextDocument(doc);
  }

  dispose(): void {
    this.stop();
    this.views.clear();
  }
}
