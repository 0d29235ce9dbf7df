/**
 * A textarea that grows with what is typed, up to its CSS `max-height`, then scrolls (as Copilot
 * Chat's input does). Returns `fit`, for changes that fire no input event (the value set by code).
 */
export function autoGrow(input: HTMLTextAreaElement): () => void {
  const fit = () => {
    // From its smallest height, so deleted lines shrink it again; the border is outside scrollHeight.
    input.style.height = 'auto';
    const style = getComputedStyle(input);
    const max = parseFloat(style.maxHeight) || Infinity;
    const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    const wanted = input.scrollHeight + borders;
    input.style.height = `${Math.min(wanted, max)}px`;
    input.style.overflowY = wanted > max ? 'auto' : 'hidden';
  };
  input.addEventListener('input', fit);
  // The view's width changes how lines wrap.
  new ResizeObserver(() => fit()).observe(input.parentElement ?? input);
  fit();
  return fit;
}
