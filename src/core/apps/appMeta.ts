/**
 * MCP Apps (SEP-1865): a tool that comes with a user interface names a `ui://` resource in its
 * `_meta.ui.resourceUri` (older servers: `_meta["ui/resourceUri"]`), and may keep itself from the
 * model with `_meta.ui.visibility` (["app"]: only an app calls it; ["model"]: no app may), with or
 * without an app of its own (a tool only its server's other tools' apps call has none). What a
 * server writes there is checked here once, when its tools are listed; a bad value is reported and
 * the tool stays a plain tool, never dropped.
 */

/** The extension id a client declares under `capabilities.extensions` to say it renders apps. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** What a client that renders apps declares in its capabilities. */
export const APPS_CAPABILITY = { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };

import type { ToolApp, ToolVisibility } from '../toolRegistry/toolTypes';

const MAX_URI_CHARS = 2048;

/**
 * What a listed tool declares of apps: its app, who may call it, and a problem with either; none of
 * them for a plain tool.
 */
export function appOfTool(meta: unknown): { app?: ToolApp; visibility?: ToolVisibility; problem?: string } {
  if (typeof meta !== 'object' || meta === null) return {};
  const m = meta as Record<string, unknown>;
  const ui =
    typeof m.ui === 'object' && m.ui !== null && !Array.isArray(m.ui) ? (m.ui as Record<string, unknown>) : undefined;
  const problems: string[] = [];
  const seen = visibilityOf(ui?.visibility);
  if (seen.problem) problems.push(seen.problem);
  const uri = ui?.resourceUri ?? m['ui/resourceUri'];
  let app: ToolApp | undefined;
  if (uri !== undefined) {
    if (
      typeof uri !== 'string' ||
      !/^ui:\/\/[^\s]+$/.test(uri) ||
      uri.length > MAX_URI_CHARS ||
      /[\u0000-\u001f\u007f-\u009f]/.test(uri)
    ) {
      problems.unshift(`declares an app at ${describe(uri)}, which is not a ui:// URI; its result is shown as text`);
    } else app = { resourceUri: uri };
  }
  return {
    ...(app ? { app } : {}),
    ...(seen.visibility ? { visibility: seen.visibility } : {}),
    ...(problems.length ? { problem: problems.join('; it also ') } : {}),
  };
}

/**
 * `_meta.ui.visibility`: a list of "model" and "app". A value that is not one keeps the tool from
 * the model and from apps alike (a server that meant to hide it is not overruled by its own typo);
 * the user still sees it and may call it.
 */
function visibilityOf(value: unknown): { visibility?: ToolVisibility; problem?: string } {
  if (value === undefined) return {};
  if (!Array.isArray(value) || value.some((v) => v !== 'model' && v !== 'app')) {
    return {
      visibility: { model: false, app: false },
      problem:
        'has a _meta.ui.visibility that is not a list of "model" and "app"; neither the model nor an app may call it',
    };
  }
  return { visibility: { model: value.includes('model'), app: value.includes('app') } };
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `a ${Array.isArray(value) ? 'list' : typeof value}`;
  const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'));
}
