import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { plainText, stripUnsafe } from '../../shared/serverText';

/**
 * `ui/download-file` (MCP Apps): an app asks the host to save files it hands over (embedded resources) or names
 * (resource links). What it names is read through its own server (`resources/read`), never fetched from the web by
 * the host: an app's page cannot reach past its policy by way of a download. Each file is bounded, and its name is
 * made a plain base name (no folders, no control characters) before the user sees it in their save dialog.
 */

/** Files one request may save. */
export const MAX_DOWNLOAD_FILES = 5;
/** Bytes one file may have. */
export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;

export interface DownloadFile {
  /** A plain base name for the save dialog (the user may change it). */
  name: string;
  bytes: Uint8Array;
  mimeType?: string;
}

/** The files of a `ui/download-file` request, or why none are saved. */
export async function downloadFiles(
  contents: readonly unknown[],
  read: (uri: string) => Promise<ReadResourceResult>,
): Promise<{ files: DownloadFile[] } | { error: string }> {
  if (!contents.length) return { error: 'it named no file' };
  if (contents.length > MAX_DOWNLOAD_FILES)
    return { error: `it named ${contents.length} files (at most ${MAX_DOWNLOAD_FILES})` };
  const files: DownloadFile[] = [];
  for (const item of contents) {
    const block = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    let file: DownloadFile | { error: string };
    if (block.type === 'resource') file = fromResource(block.resource, undefined);
    else if (block.type === 'resource_link' && typeof block.uri === 'string') {
      const uri = block.uri;
      let got: ReadResourceResult;
      try {
        got = await read(uri);
      } catch (err) {
        return { error: `its server did not give "${plainText(uri, 200)}": ${(err as Error).message}` };
      }
      const resource = got.contents.find((c) => c.uri === uri) ?? got.contents[0];
      file = resource
        ? fromResource(resource, block.name)
        : { error: `its server has nothing at "${plainText(uri, 200)}"` };
    } else file = { error: 'a file was neither an embedded resource nor a resource link' };
    if ('error' in file) return file;
    files.push(file);
  }
  return { files };
}

function fromResource(value: unknown, linkName: unknown): DownloadFile | { error: string } {
  const r = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const uri = typeof r.uri === 'string' ? r.uri : '';
  let bytes: Uint8Array;
  if (typeof r.text === 'string') bytes = new TextEncoder().encode(r.text);
  else if (typeof r.blob === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(r.blob)) bytes = Buffer.from(r.blob, 'base64');
  else return { error: `"${plainText(uri, 200)}" has neither text nor base64 data` };
  if (bytes.length > MAX_DOWNLOAD_BYTES)
    return { error: `"${plainText(uri, 200)}" is ${bytes.length} bytes (at most ${MAX_DOWNLOAD_BYTES})` };
  return {
    name: baseName(typeof linkName === 'string' && linkName ? linkName : uri),
    bytes,
    ...(typeof r.mimeType === 'string' ? { mimeType: plainText(r.mimeType, 100) } : {}),
  };
}

/** The last part of a name or URI, as a file name any system takes; "download" when nothing is left. */
export function baseName(value: string): string {
  let name = value.split(/[?#]/)[0]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept as written
  }
  const clean = stripUnsafe(name.split(/[/\\]/).pop() ?? '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return clean || 'download';
}
