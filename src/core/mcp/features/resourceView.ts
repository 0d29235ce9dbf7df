import { formatBytes } from '../../net/limits';
import type { ReadResourceResult, ResourceContent } from './featureTypes';

export { formatBytes };

/**
 * How a read resource shows in an editor, decided from what the server sent (attacker-written: the
 * MIME type only picks from fixed tables, the data is never interpreted beyond its image bytes).
 */
export type ResourceView =
  | { kind: 'text'; text: string; language: string }
  | { kind: 'image'; mimeType: string; data: string; uri: string; size: number };

/** Image types shown in a preview (as `<img>`, where an SVG's script never runs). */
export const PREVIEW_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);

const LANGUAGES: ReadonlyMap<string, string> = new Map([
  ['text/plain', 'plaintext'],
  ['text/markdown', 'markdown'],
  ['text/x-markdown', 'markdown'],
  ['application/json', 'json'],
  ['application/ld+json', 'json'],
  ['application/schema+json', 'json'],
  ['text/html', 'html'],
  ['text/css', 'css'],
  ['text/csv', 'plaintext'],
  ['text/javascript', 'javascript'],
  ['application/javascript', 'javascript'],
  ['application/typescript', 'typescript'],
  ['text/typescript', 'typescript'],
  ['text/x-python', 'python'],
  ['application/x-python', 'python'],
  ['text/x-rust', 'rust'],
  ['text/x-go', 'go'],
  ['text/x-java', 'java'],
  ['text/x-c', 'c'],
  ['text/x-c++', 'cpp'],
  ['text/x-shellscript', 'shellscript'],
  ['application/x-sh', 'shellscript'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['image/svg+xml', 'xml'],
  ['application/yaml', 'yaml'],
  ['text/yaml', 'yaml'],
  ['application/x-yaml', 'yaml'],
  ['application/toml', 'toml'],
  ['application/sql', 'sql'],
]);

const EXTENSIONS: ReadonlyMap<string, string> = new Map([
  ['md', 'markdown'],
  ['json', 'json'],
  ['html', 'html'],
  ['css', 'css'],
  ['js', 'javascript'],
  ['mjs', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['rs', 'rust'],
  ['go', 'go'],
  ['java', 'java'],
  ['c', 'c'],
  ['h', 'c'],
  ['cpp', 'cpp'],
  ['sh', 'shellscript'],
  ['xml', 'xml'],
  ['yaml', 'yaml'],
  ['yml', 'yaml'],
  ['toml', 'toml'],
  ['sql', 'sql'],
]);

/** The editor language for a MIME type (parameters ignored), else for the URI's file extension, else plain text. */
export function languageFor(mimeType: string | undefined, uri: string): string {
  const type = mimeType?.toLowerCase().split(';')[0]?.trim();
  const byType = type !== undefined ? LANGUAGES.get(type) : undefined;
  if (byType) return byType;
  if (type?.endsWith('+json')) return 'json';
  if (type?.endsWith('+xml')) return 'xml';
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(uri.split(/[?#]/)[0] ?? '')?.[1]?.toLowerCase();
  return (ext !== undefined ? EXTENSIONS.get(ext) : undefined) ?? 'plaintext';
}

/** The MIME type of an image part we can preview, when its type is allowed and its bytes say so. */
export function previewType(c: ResourceContent): string | undefined {
  const type = c.mimeType?.toLowerCase().split(';')[0]?.trim();
  if (c.blob === undefined || type === undefined || !PREVIEW_TYPES.has(type)) return undefined;
  return sniffImage(c.blob) === type ? type : undefined;
}

/** The image type the first bytes of base64 data show (the MIME type a server claims is not trusted). */
export function sniffImage(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, 64), 'base64');
  const hex = head.subarray(0, 12).toString('hex');
  if (hex.startsWith('89504e470d0a1a0a')) return 'image/png';
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('474946383761') || hex.startsWith('474946383961')) return 'image/gif';
  if (hex.startsWith('52494646') && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const text = Buffer.from(base64.slice(0, 1400), 'base64').toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return undefined;
}

/**
 * A read as an editor shows it: one text part as itself, in its language; one previewable image as
 * an image; anything else as text with each part under a header (binary parts as a size note).
 */
export function resourceView(result: ReadResourceResult): ResourceView {
  const [only] = result.contents;
  if (result.contents.length === 1 && only) {
    const image = previewType(only);
    if (image) return { kind: 'image', mimeType: image, data: only.blob!, uri: only.uri, size: only.size };
    if (only.text !== undefined)
      return { kind: 'text', text: only.text + cutNote(only), language: languageFor(only.mimeType, only.uri) };
  }
  if (!result.contents.length)
    return {
      kind: 'text',
      text: `(resource <${result.uri}> of server "${result.server}" has no contents)`,
      language: 'plaintext',
    };
  const parts = result.contents.map((c) => {
    const head = `--- <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ''}`;
    return c.text !== undefined ? `${head}\n${c.text}${cutNote(c)}` : `${head}\n${binaryNote(c)}`;
  });
  return { kind: 'text', text: parts.join('\n\n'), language: 'plaintext' };
}

export function binaryNote(c: ResourceContent): string {
  return `(binary data${c.mimeType ? ` of type ${c.mimeType}` : ''}: ${formatBytes(c.size)}; not shown)`;
}

function cutNote(c: ResourceContent): string {
  return c.truncated
    ? `\n…[cut: ${c.truncated.kept.toLocaleString('en')} of ${c.truncated.total.toLocaleString('en')} characters shown]`
    : '';
}
