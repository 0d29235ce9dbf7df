import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/client';
import { toolError } from '../tools';

/**
 * Turns a `tools/call` result into the string the registry returns. Text blocks are joined;
 * other blocks get a faithful textual form; `isError` becomes `{"error": ...}`; output over
 * `maxChars` keeps its head and says how much was cut.
 */
export function formatCallResult(result: CallToolResult, maxChars: number): string {
  const parts = (result.content ?? []).map(describeBlock);
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    // Servers should mirror structured content as text; add it only when they did not.
    if (!parts.some((p) => p.trim() === json || safeEqualJson(p, structured))) parts.push(json);
  }
  const text = parts.join('\n');
  if (result.isError) return toolError(truncate(text, maxChars) || 'remote tool failed');
  return truncate(text, maxChars);
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'audio':
      return `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` - ${block.description}` : ''}]`;
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return `[resource <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource <${r.uri}>${r.mimeType ? ` (${r.mimeType})` : ''}, ${base64Bytes(blob)} bytes of binary data]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

function safeEqualJson(text: string, value: unknown): boolean {
  if (text.length > 1_000_000) return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** Keeps the head of `text` and says how much was cut. */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.length - maxChars;
  return `${text.slice(0, maxChars)}\n…[truncated: ${cut} of ${text.length} characters cut]`;
}
