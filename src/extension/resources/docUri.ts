import * as vscode from 'vscode';

/** The scheme of MinAgent's read-only resource documents. */
export const RESOURCE_SCHEME = 'minagent-resource';

/** What a resource document shows: one resource of one server. */
export interface ResourceRef {
  server: string;
  uri: string;
  /** Set for a resource a tool result embedded: the document shows that copy, not a fresh read. */
  embedded?: string;
}

/**
 * A document URI for a server's resource. Both parts sit in the query (encoded), so nothing the
 * server wrote can change the scheme, authority or path; the path is a readable label only.
 */
export function resourceDocUri(ref: ResourceRef, label?: string): vscode.Uri {
  const query = new URLSearchParams({
    server: ref.server,
    uri: ref.uri,
    ...(ref.embedded !== undefined ? { embedded: ref.embedded } : {}),
  }).toString();
  return vscode.Uri.from({
    scheme: RESOURCE_SCHEME,
    path: `/${safeSegment(ref.server)}/${safeSegment(label ?? lastSegment(ref.uri))}`,
    query,
  });
}

/** The resource a document URI stands for, or undefined for any other URI. */
export function parseResourceDocUri(uri: vscode.Uri): ResourceRef | undefined {
  if (uri.scheme !== RESOURCE_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const server = q.get('server');
  const resource = q.get('uri');
  const embedded = q.get('embedded');
  return server && resource ? { server, uri: resource, ...(embedded !== null ? { embedded } : {}) } : undefined;
}

export function refKey(ref: ResourceRef): string {
  return JSON.stringify([ref.server, ref.uri]);
}

function lastSegment(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? uri;
  return path.split('/').filter(Boolean).pop() ?? 'resource';
}

/**
 * A path segment a label can be shown as: no separators (a slash reads as one, "∕"), no control characters, bounded.
 */
function safeSegment(text: string): string {
  const clean = text
    .replace(/[/\\]/g, '∕')
    .replace(/[\u0000-\u001f\u007f:?#%]+/g, '_')
    .trim()
    .slice(0, 80);
  return clean || 'resource';
}
