/**
 * Shows a pinned app over the strip above the input without moving its frame: a frame that moves in
 * the page reloads and loses the app's state, so the app's host stays in its card and is laid out
 * `position: fixed` over the strip, which keeps the app's height so nothing is covered. The card's
 * chunk and the transcript drop the containment that would otherwise clip it (`.holds-pin`, `.has-pin`).
 * Returns what puts everything back.
 */
export function pinOver(host: HTMLElement, slot: HTMLElement): () => void {
  const chunk = host.closest('.chunk');
  const transcript = host.closest('#transcript');
  chunk?.classList.add('holds-pin');
  transcript?.classList.add('has-pin');
  host.classList.add('pinned');
  slot.hidden = false;
  const place = () => {
    slot.style.height = `${host.offsetHeight}px`;
    const r = slot.getBoundingClientRect();
    host.style.top = `${r.top}px`;
    host.style.left = `${r.left}px`;
    host.style.width = `${r.width}px`;
  };
  // The app's own height, the window, and whatever under the strip grows (the input) move it.
  const observer = new ResizeObserver(place);
  observer.observe(host);
  observer.observe(document.body);
  for (let el = slot.nextElementSibling; el; el = el.nextElementSibling) observer.observe(el);
  place();
  return () => {
    observer.disconnect();
    chunk?.classList.remove('holds-pin');
    transcript?.classList.remove('has-pin');
    host.classList.remove('pinned');
    for (const p of ['top', 'left', 'width'] as const) host.style[p] = '';
    slot.style.height = '';
    slot.hidden = true;
  };
}
