import type { ApprovalDecision, ToolCard } from '../shared/protocol';
import { renderCardResources } from './cardResources';
import { el } from './dom';
import { isCardIcon } from '../shared/validate';

const STATUS_TEXT: Record<ToolCard['status'], string> = {
  waiting: 'waiting for approval',
  running: 'running',
  done: 'done',
  error: 'error',
  denied: 'denied',
  cancelled: 'cancelled',
};
const COLLAPSE_OVER = 600;

export interface CardActions {
  approve(callId: string, decision: ApprovalDecision): void;
  /** A task's card: let it run on in the background, or stop it. */
  task?(callId: string, action: 'background' | 'stop'): void;
  openResult(callId: string): void;
  /** Opens the card's `index`th resource link or embedded resource. */
  openResource(callId: string, index: number): void;
}

/** A tool call as a card. Every value is set as text: nothing a tool returns is parsed as HTML. */
export function renderCard(card: ToolCard, actions: CardActions): HTMLElement {
  const root = el('div', `card status-${card.status}`);
  root.dataset.callId = card.callId;
  const head = el('div', 'card-head');
  head.append(el('span', 'card-icon'));
  const icon = toolIcon(card);
  if (icon) head.append(icon);
  head.append(el('span', 'card-name', card.name));
  if (card.title) head.append(el('span', 'card-title', card.title));
  if (card.server) head.append(el('span', 'card-server', `→ ${card.server}`));
  const background = card.status === 'running' && card.task?.background;
  head.append(el('span', 'card-status', background ? 'running in the background' : STATUS_TEXT[card.status]));
  if (card.durationMs !== undefined) head.append(el('span', 'card-duration', formatMs(card.durationMs)));
  root.append(head);
  if (card.approval) root.append(el('div', 'card-approval-note', card.approval));

  const details = el('details', 'card-body');
  details.open = card.status === 'waiting';
  details.append(el('summary', '', card.wireName !== card.name ? `sent as ${card.wireName}` : 'details'));
  details.append(el('div', 'card-label', 'Arguments'), el('pre', 'card-args', card.arguments));
  root.append(details);

  if (card.status === 'running' && card.progress) {
    const p = card.progress;
    const bar = el('div', 'card-progress');
    const label = p.message ?? (p.total ? `${p.progress} / ${p.total}` : String(p.progress));
    bar.append(el('span', '', label));
    if (p.total) {
      const meter = el('progress');
      meter.max = p.total;
      meter.value = p.progress;
      bar.append(meter);
    }
    root.append(bar);
  }

  if (card.status === 'running' && card.task && actions.task) {
    const buttons = el('div', 'card-task');
    const add = (label: string, action: 'background' | 'stop') => {
      const b = el('button', 'secondary', label);
      b.addEventListener('click', () => {
        b.disabled = true;
        actions.task?.(card.callId, action);
      });
      buttons.append(b);
    };
    if (!card.task.background) add('Run in Background', 'background');
    add('Stop Task', 'stop');
    root.append(buttons);
  }

  if (card.status === 'waiting') {
    const buttons = el('div', 'card-approval');
    const add = (label: string, decision: ApprovalDecision, primary = false) => {
      const b = el('button', primary ? 'primary' : 'secondary', label);
      b.addEventListener('click', () => actions.approve(card.callId, decision));
      buttons.append(b);
    };
    add('Allow once', 'once', true);
    add('Allow for this chat', 'chat');
    add('Always allow this tool', 'always');
    add('Deny', 'deny');
    root.append(buttons);
  }

  if (card.images?.length) {
    const images = el('div', 'card-images');
    for (const image of card.images) {
      if (!/^image\/(png|jpeg|gif|webp)$/.test(image.mimeType)) continue;
      const img = el('img');
      img.alt = `image returned by ${card.name}`;
      img.src = `data:${image.mimeType};base64,${image.data.replace(/[^A-Za-z0-9+/=]/g, '')}`;
      images.append(img);
    }
    root.append(images);
  }

  // A failed call's text is {"error": message} (a successful one may say anything, {"error": ...} too).
  const error = card.result !== undefined && card.status !== 'done' ? resultError(card.result) : undefined;
  if (error !== undefined) {
    // A failure reads as a sentence ("cancelled: the server was restarted"), not as {"error": ...}.
    if (error !== STATUS_TEXT[card.status]) root.append(el('div', 'card-error', error));
  } else if (card.found) {
    // MinAgent's own search: what it loaded, as lines of text (never markup: server-written descriptions).
    const list = el('ul', 'card-found');
    for (const line of card.found) list.append(el('li', '', line));
    root.append(el('div', 'card-label', 'Found and loaded for the model:'), list);
  } else if (card.result !== undefined) {
    const result = el('div', 'card-result');
    const long = card.result.length > COLLAPSE_OVER || (card.resultChars ?? 0) > card.result.length;
    const pre = el('pre', long ? 'collapsed' : '', card.result);
    result.append(pre);
    if (long) {
      const row = el('div', 'card-result-actions');
      const toggle = el('button', 'link', 'Show more');
      toggle.addEventListener('click', () => {
        const collapsed = pre.classList.toggle('collapsed');
        toggle.textContent = collapsed ? 'Show more' : 'Show less';
      });
      const open = el(
        'button',
        'link',
        `Open full result${card.resultChars ? ` (${card.resultChars.toLocaleString()} characters)` : ''}`,
      );
      open.addEventListener('click', () => actions.openResult(card.callId));
      row.append(toggle, open);
      result.append(row);
    }
    root.append(result);
  }
  if (card.app?.context) {
    // What the app put in the model's view: the user sees what the model is told.
    const context = el('details', 'card-app-context');
    context.append(el('summary', '', 'The app told the model'), el('pre', '', card.app.context));
    root.append(context);
  }
  const resources = renderCardResources(card, actions.openResource);
  if (resources) root.append(resources);
  return root;
}

/** The tool's own icon when it has a checked one (an `<img>`: an SVG's script never runs there). */
function toolIcon(card: ToolCard): HTMLElement | undefined {
  if (!card.icon || !isCardIcon(card.icon)) return undefined;
  const img = el('img', 'card-tool-icon');
  img.alt = '';
  img.src = card.icon;
  return img;
}

/** The message of a tool's `{"error": ...}` result, to show as a line of text rather than as JSON. */
function resultError(result: string): string | undefined {
  if (!result.startsWith('{"error"')) return undefined;
  try {
    const v = JSON.parse(result) as Record<string, unknown>;
    return typeof v.error === 'string' && Object.keys(v).length === 1 ? v.error : undefined;
  } catch {
    return undefined;
  }
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
