import type { ChatState, HostMessage, TranscriptItem, WebviewRequest } from '../shared/protocol';
import { BudgetMeterView } from './budget';
import { renderCard } from './cards';
import { addCopyButtons, renderMarkdown } from './markdown';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
let nextRequest = 1;
function send(request: WebviewRequest): void {
  vscode.postMessage({ ...request, requestId: nextRequest++ });
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const transcript = $<HTMLDivElement>('transcript');
const input = $<HTMLTextAreaElement>('input');
const sendButton = $<HTMLButtonElement>('send');
const modelSelect = $<HTMLSelectElement>('model');
const banner = $<HTMLDivElement>('banner');
const meter = new BudgetMeterView($<HTMLDivElement>('budget'));

const items = new Map<string, { item: TranscriptItem; el: HTMLElement }>();
let busy = false;
const pendingRender = new Set<string>();
let frame = 0;

function renderItem(item: TranscriptItem): HTMLElement {
  switch (item.kind) {
    case 'user': {
      const e = document.createElement('div');
      e.className = 'msg user';
      e.textContent = item.text;
      return e;
    }
    case 'assistant': {
      const e = document.createElement('div');
      e.className = `msg assistant${item.streaming ? ' streaming' : ''}`;
      e.innerHTML = renderMarkdown(item.text);
      addCopyButtons(e);
      return e;
    }
    case 'tool':
      return renderCard(item.card, {
        approve: (callId, decision) => send({ type: 'approve', callId, decision }),
        openResult: (callId) => send({ type: 'openResult', callId }),
      });
    case 'notice': {
      const e = document.createElement('div');
      e.className = `notice ${item.level}`;
      e.textContent = item.text;
      return e;
    }
  }
}

function stickToBottom(fn: () => void): void {
  const atBottom = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  fn();
  if (atBottom) transcript.scrollTop = transcript.scrollHeight;
}

function upsert(item: TranscriptItem): void {
  stickToBottom(() => {
    const existing = items.get(item.id);
    const el = renderItem(item);
    el.dataset.id = item.id;
    if (existing) existing.el.replaceWith(el);
    else transcript.append(el);
    items.set(item.id, { item, el });
  });
}

/** Streamed text re-renders only its own message, at most once per frame: the list is never rebuilt. */
function appendText(id: string, delta: string): void {
  const entry = items.get(id);
  if (!entry || entry.item.kind !== 'assistant') return;
  entry.item = { ...entry.item, text: entry.item.text + delta };
  pendingRender.add(id);
  if (!frame) {
    frame = requestAnimationFrame(() => {
      frame = 0;
      for (const pid of pendingRender) {
        const e = items.get(pid);
        if (e) upsert(e.item);
      }
      pendingRender.clear();
    });
  }
}

function setBusy(value: boolean): void {
  busy = value;
  sendButton.textContent = busy ? 'Stop' : 'Send';
  sendButton.title = busy ? 'Stop (Escape)' : 'Send (Enter)';
  sendButton.classList.toggle('stop', busy);
  document.body.classList.toggle('busy', busy);
}

function applyState(state: ChatState): void {
  transcript.textContent = '';
  items.clear();
  for (const item of state.items) upsert(item);
  setBusy(state.busy);
  modelSelect.textContent = '';
  for (const m of state.models) {
    const o = document.createElement('option');
    o.value = m.id;
    o.textContent = m.label;
    if (m.detail) o.title = m.detail;
    o.selected = m.id === state.selectedModel;
    modelSelect.append(o);
  }
  modelSelect.disabled = state.models.length === 0;
  banner.textContent = '';
  banner.hidden = !state.setupHint && !state.toolWarning;
  for (const [text, action, label] of [
    [state.setupHint, 'setupModel', 'Set up a model'],
    [state.toolWarning, 'chooseTools', 'Choose tools'],
  ] as const) {
    if (!text) continue;
    const p = document.createElement('p');
    p.textContent = text;
    const b = document.createElement('button');
    b.textContent = label;
    b.addEventListener('click', () => send({ type: action }));
    p.append(' ', b);
    banner.append(p);
  }
  transcript.scrollTop = transcript.scrollHeight;
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'state':
      applyState(m.state);
      break;
    case 'append':
    case 'update':
      upsert(m.item);
      break;
    case 'textDelta':
      appendText(m.id, m.delta);
      break;
    case 'busy':
      setBusy(m.busy);
      break;
    case 'budget':
      meter.show(m.budget);
      break;
    case 'reply':
      break;
  }
});

function submit(): void {
  // While a turn runs the input keeps what is typed; only Stop (the button or Escape) stops.
  if (busy) return;
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  send({ type: 'send', text });
  sendDraft();
}

/** The meter shows what sending the typed message would cost; told at most every 200 ms. */
let draftTimer: ReturnType<typeof setTimeout> | undefined;
function sendDraft(): void {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => send({ type: 'draft', text: input.value }), 200);
}
input.addEventListener('input', sendDraft);

sendButton.addEventListener('click', () => (busy ? send({ type: 'stop' }) : submit()));
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    submit();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && busy) {
    e.preventDefault();
    send({ type: 'stop' });
  }
});
$<HTMLButtonElement>('new-chat').addEventListener('click', () => send({ type: 'newChat' }));
$<HTMLButtonElement>('export').addEventListener('click', () => send({ type: 'export' }));
modelSelect.addEventListener('change', () => send({ type: 'selectModel', id: modelSelect.value }));

send({ type: 'ready' });
input.focus();
