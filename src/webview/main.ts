import { LastMessageActions } from './lastActions';
import type { ChatMeta, ChatState, WebviewRequest } from '../shared/protocol';
import { parseHostMessage } from '../shared/validate';
import { autoGrow } from './autoGrow';
import { AppFrames } from './apps';
import { AskCards } from './askCards';
import { BudgetMeterView } from './budget';
import { AttachmentChips } from './chips';
import { PromptUi } from './prompts';
import { Transcript } from './transcript';
import { Welcome } from './welcome';
import { withAppMessage } from './appDraft';
import { UndoEdit } from './undoEdit';
import { Announcer } from './announce';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
let nextRequest = 1;
function send(request: WebviewRequest): number {
  const requestId = nextRequest++;
  vscode.postMessage({ ...request, requestId });
  return requestId;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = $<HTMLTextAreaElement>('input');
const sendButton = $<HTMLButtonElement>('send');
const modelSelect = $<HTMLSelectElement>('model');
const banner = $<HTMLDivElement>('banner');
const apps = new AppFrames(send, $<HTMLDivElement>('app-pip'), () => backToInput());
const transcript = new Transcript($<HTMLDivElement>('transcript'), {
  cardRendered: (card, el) => apps.attach(card, el),
  approve: (callId, decision) => {
    send({ type: 'approve', callId, decision });
    backToInput(); // the card's buttons go with the decision: the caret returns to the input, as in Copilot Chat
  },
  openResult: (callId) => send({ type: 'openResult', callId }),
  task: (callId, action) => send({ type: 'task', callId, action }),
  openResource: (callId, index) => send({ type: 'openResource', callId, index }),
  continueAnswer: () => send({ type: 'continue' }),
});
const meter = new BudgetMeterView($<HTMLDivElement>('budget'));
// What a screen reader is told: an answer done, an approval or a form that waits, an error.
const announcer = new Announcer($<HTMLDivElement>('announce-polite'), $<HTMLDivElement>('announce-alert'));
const lastActions = new LastMessageActions($<HTMLDivElement>('transcript'), {
  retry: () => send({ type: 'retry' }),
  edit: () => send({ type: 'editLast' }),
});
const fitInput = autoGrow(input);
const undoEdit = new UndoEdit(
  document.querySelector('footer')!,
  input,
  () => send({ type: 'undoEdit' }),
  () => input.dispatchEvent(new Event('input')),
);
const welcome = new Welcome($<HTMLDivElement>('transcript'), (prompt) => {
  input.value = prompt;
  input.focus();
  input.setSelectionRange(prompt.length, prompt.length);
  input.dispatchEvent(new Event('input')); // grows it and tells the budget meter
});
/**
 * The page (hidden in its HTML) shows once the first state (or an error) arrived and its stylesheet
 * applies: no bare, unstyled controls or empty picker flash while a loaded editor fetches them.
 */
let styled = false;
let stated = false;
const reveal = () => {
  if (styled && stated) document.body.hidden = false;
};
const sheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
if (!sheet || sheet.sheet) styled = true;
else {
  const done = () => {
    styled = true; // loaded, or failed: then unstyled beats blank
    reveal();
  };
  sheet.addEventListener('load', done, { once: true });
  sheet.addEventListener('error', done, { once: true });
}
function shown(): void {
  stated = true;
  reveal();
}
const chips = new AttachmentChips($<HTMLDivElement>('attachments'), (id) => send({ type: 'detach', id }));
// Before the input's own key handlers: the `/` menu takes Enter and Escape while it is open.
const prompts = new PromptUi(input, send);
document.querySelector('footer')!.before(...prompts.elements);
const asks = new AskCards(
  (card) => transcript.appendNote(card),
  (id, answer) => {
    send({ type: 'answerAsk', id, answer });
    backToInput();
  },
);
let busy = false;

function setBusy(value: boolean): void {
  busy = value;
  sendButton.textContent = busy ? 'Stop' : 'Send';
  sendButton.title = busy ? 'Stop (Escape)' : 'Send (Enter)';
  sendButton.classList.toggle('stop', busy);
  document.body.classList.toggle('busy', busy);
  lastActions.place(busy);
}

function applyState(state: ChatState): void {
  transcript.reset(state.items);
  announcer.reset(state.items);
  welcome.setEmpty(state.items.length === 0);
  asks.reattach();
  setBusy(state.busy);
  applyMeta(state);
  shown();
}

/** The model picker and the banner; the transcript is not touched. */
function applyMeta(state: ChatMeta): void {
  chips.show(state.attachments);
  modelSelect.textContent = '';
  for (const m of state.models) {
    const o = document.createElement('option');
    o.value = m.id;
    o.textContent = m.label;
    if (m.detail) o.title = m.detail;
    o.selected = m.id === state.selectedModel;
    modelSelect.append(o);
  }
  // Compact in the header; the full name and where it runs in the tooltip.
  const selected = state.models.find((m) => m.id === state.selectedModel) ?? state.models[0];
  modelSelect.title = selected ? `${selected.label}${selected.detail ? `\n${selected.detail}` : ''}` : 'No model';
  welcome.setExamples(state.examples);
  modelSelect.disabled = state.models.length === 0;
  banner.textContent = '';
  banner.hidden = !state.setupHint && !state.trustNotice && !state.modelNotice;
  for (const [text, className] of [
    [state.trustNotice, 'trust-notice'],
    [state.modelNotice, 'model-notice'],
  ] as const) {
    if (!text) continue;
    const p = document.createElement('p');
    p.className = className;
    p.textContent = text;
    banner.append(p);
  }
  for (const [text, action, label] of [[state.setupHint, 'setupModel', 'Set up a model']] as const) {
    if (!text) continue;
    const p = document.createElement('p');
    p.textContent = text;
    const b = document.createElement('button');
    b.textContent = label;
    b.addEventListener('click', () => send({ type: action }));
    p.append(' ', b);
    banner.append(p);
  }
}

/** A request the host could not carry out: said in the chat, not kept in the conversation. */
function showError(text: string): void {
  const e = document.createElement('div');
  e.className = 'notice error host-error';
  e.textContent = text;
  transcript.appendNote(e);
  announcer.say(`Error: ${text}`, true);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // Only the host posts here (through VS Code's frame, of this page's origin): an app's frame (an
  // opaque origin) posts too, and what it posts is never taken for the host's. Anything that is not a
  // protocol message is dropped.
  if (event.origin !== window.origin) return;
  const m = parseHostMessage(event.data);
  if (!m) return;
  switch (m.type) {
    case 'state':
      undoEdit.dismiss();
      apps.reset();
      applyState(m.state);
      break;
    case 'appFrame':
    case 'appMessage':
    case 'appSize':
    case 'appPlace':
    case 'appModes':
    case 'appGone':
      apps.handle(m);
      break;
    case 'meta':
      applyMeta(m.meta);
      break;
    case 'append':
      welcome.setEmpty(false);
      transcript.upsert(m.item);
      announcer.item(m.item);
      lastActions.place(busy);
      break;
    case 'update':
      transcript.upsert(m.item);
      announcer.item(m.item);
      break;
    case 'textDelta':
      transcript.appendText(m.id, m.delta);
      break;
    case 'remove':
      transcript.remove(m.id);
      welcome.setEmpty(transcript.isEmpty());
      lastActions.place(busy);
      break;
    case 'editDraft':
      putInInput(m.text);
      if (m.undoable) undoEdit.offer(m.text);
      break;
    case 'appSaid':
      putInInput(withAppMessage(input.value, lastFromApp, m.text));
      lastFromApp = m.text;
      break;
    case 'notSent':
      // Back where the user typed it (before anything typed since), with the reason beside it.
      putInInput(input.value ? `${m.text}\n${input.value}` : m.text);
      showError(m.reason);
      break;
    case 'busy':
      if (m.busy) undoEdit.dismiss();
      setBusy(m.busy);
      break;
    case 'focusInput':
      backToInput();
      break;
    case 'budget':
      meter.show(m.budget);
      break;
    case 'prompts':
      prompts.setPrompts(m.prompts);
      break;
    case 'completions':
      prompts.handle(m);
      break;
    case 'reply':
      if (prompts.handle(m)) break;
      if (m.error) {
        shown();
        showError(m.error);
      }
      break;
    case 'ask':
      asks.show(m.ask);
      announcer.ask(m.ask);
      break;
    case 'askDone':
      asks.done(m.id, m.outcome);
      break;
  }
});

// A link in the model's text: a web address is VS Code's to open; any other (a server's resource,
// library://notes/readme) is the host's, which opens it when a running server lists it.
$<HTMLDivElement>('transcript').addEventListener('click', (e) => {
  const link = (e.target as Element | null)?.closest?.('.msg.assistant a[href]');
  const href = link?.getAttribute('href');
  if (!href || /^(https?|mailto):/i.test(href)) return;
  e.preventDefault();
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) send({ type: 'openLink', uri: href });
});

/** Puts the caret in the input (after an action whose button is gone, or when the view is focused). */
function backToInput(): void {
  input.focus();
}

/** Sets the input's text as if typed (it grows, the budget meter measures it) and puts the caret there. */
/** The last message an app put in the input, so the next replaces it rather than piling up (appDraft.ts). */
let lastFromApp: string | undefined;

function putInInput(text: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input'));
  backToInput();
}

// Focusing the view (its Focus command, Ctrl+Alt+M, a click on its title) lands in the input, not on the page.
window.addEventListener('focus', () => {
  send({ type: 'focus', focused: true });
  if (document.activeElement === document.body || document.activeElement === null) backToInput();
});
window.addEventListener('blur', () => send({ type: 'focus', focused: false }));

function submit(): void {
  // While a turn runs the input keeps what is typed; only Stop (the button or Escape) stops.
  if (busy) return;
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  fitInput();
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
modelSelect.addEventListener('change', () => {
  modelSelect.title = modelSelect.selectedOptions[0]?.textContent ?? '';
  send({ type: 'selectModel', id: modelSelect.value });
});

send({ type: 'ready' });
input.focus();
