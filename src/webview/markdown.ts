import DOMPurify from 'dompurify';
import { marked } from 'marked';

marked.setOptions({ gfm: true, breaks: true });

/**
 * Model text as sanitized HTML: marked renders, DOMPurify removes anything that could run
 * (scripts, event handlers, javascript: URLs, forms, frames). Nothing a model says runs here.
 */
const PURIFY = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style'],
  // DOMPurify's own rule, plus `scheme://` addresses (a server's resource, library://notes/readme: the
  // chat opens those when a server lists them), never javascript:, data:, vbscript:, file:, command: or vscode*:.
  ALLOWED_URI_REGEXP:
    /^(?:(?:https?|mailto|tel):|(?!(?:javascript|data|vbscript|file|command|vscode[\w-]*):)[a-z][a-z0-9+.-]*:\/\/|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
};

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(marked.parse(text, { async: false }), PURIFY);
}

/** Adds a copy button to every code block inside `root`. */
export function addCopyButtons(root: HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const button = document.createElement('button');
    button.className = 'copy';
    button.textContent = 'Copy';
    button.title = 'Copy code';
    button.addEventListener('click', () => {
      void navigator.clipboard.writeText(pre.querySelector('code')?.textContent ?? pre.textContent ?? '').then(() => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), 1200);
      });
    });
    pre.classList.add('has-copy');
    pre.appendChild(button);
  }
}

/** Inline Markdown (no blocks) as sanitized HTML, for a part of a paragraph that is still streaming. */
export function renderInline(text: string): string {
  return DOMPurify.sanitize(marked.parseInline(text, { async: false }), PURIFY);
}
