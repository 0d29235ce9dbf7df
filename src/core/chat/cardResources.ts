import type { ToolResource } from '../toolRegistry/toolRegistry';
import type { CardResource } from '../../shared/protocol';

/** Most resources one card lists, and the most of an embedded text it keeps. */
export const MAX_CARD_RESOURCES = 20;
export const MAX_CARD_RESOURCE_TEXT = 20_000;
const MAX_LABEL = 200;

/** The resources of a tool result as its card shows them: bounded, labelled, nothing interpreted. */
export function cardResources(resources: readonly ToolResource[] | undefined): CardResource[] {
  return (resources ?? []).slice(0, MAX_CARD_RESOURCES).map((r) => ({
    kind: r.kind,
    server: r.server,
    uri: r.uri,
    label: (r.title ?? r.name ?? r.uri).slice(0, MAX_LABEL),
    ...(r.mimeType !== undefined ? { mimeType: r.mimeType.slice(0, 100) } : {}),
    ...(r.size !== undefined ? { size: r.size } : {}),
    ...(r.text !== undefined ? { text: r.text.slice(0, MAX_CARD_RESOURCE_TEXT) } : {}),
  }));
}
