import { formatBytes, type ResourceView } from '../../core/mcp/features/resourceView';

/** A resource read that is a raster or vector image. */
export type ImageView = Extract<ResourceView, { kind: 'image' }>;

/** The preview page of an image resource: no script at all; the CSP allows `data:` images and inline style only. */
export function imageHtml(title: string, view: ImageView): string {
  const data = view.data.replace(/[^A-Za-z0-9+/=]/g, '');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<style>body{display:flex;flex-direction:column;align-items:center;gap:8px;padding:16px;font-family:var(--vscode-font-family);color:var(--vscode-foreground)} img{max-width:100%;image-rendering:auto;background:repeating-conic-gradient(#8884 0 25%,transparent 0 50%) 50%/16px 16px}</style>
</head><body>
<img id="image" src="data:${view.mimeType};base64,${data}" alt="${escapeHtml(title)}">
<p class="note">${escapeHtml(`${view.uri} · ${view.mimeType} · ${formatBytes(view.size)}`)}</p>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
