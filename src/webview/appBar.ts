// The small parts around a card's app: a note where it was, and the row of link buttons above it.

export function note(text: string): HTMLElement {
  const p = document.createElement('div');
  p.className = 'app-note';
  p.textContent = text;
  return p;
}

/** A row of small buttons above an app: [label, tooltip, action]. */
export function bar(buttons: ReadonlyArray<[string, string, () => void]>): HTMLElement {
  const row = document.createElement('div');
  row.className = 'app-bar';
  row.append(...buttons.map(([label, title, action]) => button(label, title, action)));
  return row;
}

export function button(label: string, title: string, action: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.className = 'link';
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', action);
  return b;
}
