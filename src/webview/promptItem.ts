import type { TranscriptItem } from '../shared/protocol';
import { SHOWN_IMAGE } from '../shared/validatePrompts';
import { el } from './dom';

/**
 * A server's prompt as the turn's input: its name and server, then each message as plain text
 * (a server wrote it: it is never parsed as HTML or Markdown) with its raster images.
 */
export function renderPromptItem(item: Extract<TranscriptItem, { kind: 'prompt' }>): HTMLElement {
  const root = el('div', 'msg prompt');
  const head = el('div', 'prompt-head');
  head.append(el('span', 'prompt-name', `/${item.name}`), el('span', 'prompt-server', item.server));
  root.append(head);
  for (const m of item.messages) {
    const part = el('div', `prompt-message role-${m.role}`);
    if (m.role === 'assistant') part.append(el('div', 'prompt-role', 'assistant'));
    if (m.text) part.append(el('div', 'prompt-text', m.text));
    for (const image of m.images ?? []) {
      if (!SHOWN_IMAGE.test(image.mimeType)) continue;
      const img = el('img', 'prompt-image');
      img.alt = `image (${image.mimeType}) from ${item.server}`;
      img.src = `data:${image.mimeType};base64,${image.data}`;
      part.append(img);
    }
    root.append(part);
  }
  return root;
}
