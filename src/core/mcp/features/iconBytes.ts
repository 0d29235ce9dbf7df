import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SafeIcon } from '../../toolRegistry/toolTypes';
import { sniffImage } from './resourceView';

/** Largest icon loaded, in bytes. */
export const MAX_ICON_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/** An icon's image, checked: its bytes are the allowed image type it claims. */
export interface IconImage {
  mimeType: string;
  bytes: Buffer;
}

/**
 * Loads the image of an icon that passed checkIcon: `data:` decoded, `file:` read (checkIcon lets
 * only local servers name files), http(s) fetched from the server's own origin without following a
 * redirect (which could lead elsewhere). Bounded in size and time; the bytes must be the declared
 * image type, so an HTML page or a script sent as an "icon" is refused. Resolves to the image or
 * the reason it was refused.
 */
export async function loadIcon(icon: SafeIcon, fetchImpl: typeof fetch = fetch): Promise<IconImage | string> {
  let bytes: Buffer;
  try {
    bytes = await iconBytes(icon.src, fetchImpl);
  } catch (err) {
    return (err as Error).message;
  }
  if (bytes.length > MAX_ICON_BYTES) return `it is over ${MAX_ICON_BYTES} bytes`;
  const sniffed = sniffImage(bytes.subarray(0, 1024).toString('base64'));
  if (sniffed !== icon.mimeType) return `its bytes are ${sniffed ?? 'not an allowed image'}, not ${icon.mimeType}`;
  return { mimeType: sniffed, bytes };
}

async function iconBytes(src: string, fetchImpl: typeof fetch): Promise<Buffer> {
  const url = new URL(src);
  switch (url.protocol) {
    case 'data:': {
      const comma = src.indexOf(',');
      if (comma < 0) throw new Error('a data: URL without data');
      const meta = src.slice(5, comma);
      const data = src.slice(comma + 1);
      return /;base64$/i.test(meta) ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'utf8');
    }
    case 'file:': {
      const path = fileURLToPath(url);
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a file');
      if (info.size > MAX_ICON_BYTES) throw new Error(`it is over ${MAX_ICON_BYTES} bytes`);
      return readFile(path);
    }
    case 'http:':
    case 'https:': {
      const response = await fetchImpl(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        credentials: 'omit',
      });
      if (response.status !== 200) {
        void response.body?.cancel().catch(() => undefined);
        throw new Error(
          response.status >= 300 && response.status < 400
            ? 'it redirects (icons are not followed elsewhere)'
            : `HTTP ${response.status}`,
        );
      }
      return readCapped(response);
    }
    default:
      throw new Error(`the "${url.protocol}" scheme is not allowed`);
  }
}

async function readCapped(response: Response): Promise<Buffer> {
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ICON_BYTES) throw new Error(`it is over ${MAX_ICON_BYTES} bytes`);
      parts.push(value);
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts);
}

/** A `data:` URI of a checked icon image, for an `<img>` in the chat (its CSP allows data: images). */
export function iconDataUri(image: IconImage): string {
  return `data:${image.mimeType};base64,${image.bytes.toString('base64')}`;
}
