import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import type { ToolResource } from '../../toolRegistry/toolRegistry';
import { base64Bytes, truncate } from '../../base/text';
import { failed, succeeded, type ToolResult } from '../../toolRegistry/toolResult';

/**
 * Turns a `tools/call` result into the string the registry returns. Text blocks are joined;
 * other blocks get a faithful textual form; `isError` becomes `{"error": ...}`; output over
 * `maxChars` keeps its head and says how much was cut.
 */
export function formatCallResult(result: CallToolResult, maxChars: number, server?: string): string {
  return asToolResult(result, maxChars, server).text;
}

/** The same, with how the call ended: the server's own `isError`, never what its text looks like. */
export function asToolResult(result: CallToolResult, maxChars: number, server?: string): ToolResult {
  const text = truncate(contentText(result, server), maxChars);
  return result.isError ? failed(text || 'remote tool failed') : succeeded(text);
}

function contentText(result: CallToolResult, server: string | undefined): string {
  const parts = (result.content ?? []).map((block) => describeBlock(block, server));
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    // Servers should mirror structured content as text; add it only when they did not.
    if (!parts.some((p) => p.trim() === json || safeEqualJson(p, structured))) parts.push(json);
  }
  return parts.join('\n');
}

function describeBlock(block: ContentBlock, server: string | undefined): string {
  const from = server ? ` from server "${server}"` : '';
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'audio':
      return `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link': {
      const type = block.mimeType ? ` (${block.mimeType})` : '';
      const size = block.size !== undefined ? `, ${block.size} bytes` : '';
      const about = block.description ? ` - ${block.description}` : '';
      return `[resource link${from}: ${block.title ?? block.name} <${block.uri}>${type}${size}${about}]`;
    }
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string')
        return `[embedded resource <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ''}${from}]\n${r.text}\n[end of resource <${r.uri}>]`;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[embedded resource <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ''}${from}, ${base64Bytes(blob)} bytes of binary data]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

function safeEqualJson(text: string, value: unknown): boolean {
  if (text.length > 1_000_000) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** Most characters of an embedded resource's text handed to a UI beside the result. */
const MAX_EMBEDDED_TEXT = 100_000;

/** Reports a resource link or embedded resource of a result as structured data for a UI. */
export function reportResource(block: ContentBlock, server: string, report: (resource: ToolResource) => void): void {
  if (block.type === 'resource_link') {
    report({
      kind: 'link',
      server,
      uri: block.uri,
      name: block.name,
      ...(block.title !== undefined ? { title: block.title } : {}),
      ...(block.description !== undefined ? { description: block.description } : {}),
      ...(block.mimeType !== undefined ? { mimeType: block.mimeType } : {}),
      ...(block.size !== undefined ? { size: block.size } : {}),
    });
  } else if (block.type === 'resource') {
    const r = block.resource;
    const text = 'text' in r && typeof r.text === 'string' ? r.text : undefined;
    const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
    report({
      kind: 'embedded',
      server,
      uri: r.uri,
      ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
      ...(text !== undefined ? { text: text.slice(0, MAX_EMBEDDED_TEXT) } : {}),
      size: text !== undefined ? Buffer.byteLength(text) : base64Bytes(blob),
    });
  }
}
