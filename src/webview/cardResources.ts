import type { CardResource, ToolCard } from '../shared/protocol';

/**
 * The resource links and embedded resources of a tool result, as rows the user can open. All of
 * it is server-written: labels and URIs are set as text, and a row is a button that asks the host
 * to open the card's resource by its position. Nothing here navigates (no `href`), so a
 * `javascript:` or `command:` URI is only ever shown, never followed.
 */
export function renderCardResources(
  card: ToolCard,
  open: (callId: string, index: number) => void,
): HTMLElement | undefined {
  if (!card.resources?.length) return undefined;
  const list = document.createElement('div');
  list.className = 'card-resources';
  card.resources.forEach((r, i) => list.append(row(r, () => open(card.callId, i))));
  return list;
}

function row(r: CardResource, open: () => void): HTMLElement {
  const e = document.createElement('div');
  e.className = `card-resource ${r.kind}`;
  const button = document.createElement('button');
  button.className = 'link card-resource-open';
  button.textContent = `${r.kind === 'link' ? '↗' : '▣'} ${r.label}`;
  button.title = `${r.kind === 'link' ? 'Open' : 'Open the embedded copy of'} ${r.uri} (server "${r.server}")`;
  button.addEventListener('click', open);
  const detail = document.createElement('span');
  detail.className = 'card-resource-detail';
  detail.textContent = [
    r.uri,
    r.mimeType,
    r.size !== undefined ? `${r.size.toLocaleString('en')} bytes` : undefined,
    r.kind === 'embedded' ? 'embedded' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  e.append(button, detail);
  if (r.kind === 'embedded' && r.text) {
    const preview = document.createElement('pre');
    preview.className = 'card-resource-text collapsed';
    preview.textContent = r.text.length > 600 ? `${r.text.slice(0, 600)}…` : r.text;
    e.append(preview);
  }
  return e;
}
