/**
 * MCP Apps (SEP-1865): a tool that comes with a user interface names a `ui://` resource in its
 * `_meta.ui.resourceUri` (older servers: `_meta["ui/resourceUri"]`), and may keep itself from the
 * model with `_meta.ui.visibility` (["app"]: only its app calls it). What a server writes there is
 * checked here once, when its tools are listed; a bad value is reported and the tool stays a plain
 * tool, never dropped.
 */

/** The extension id a client declares under `capabilities.extensions` to say it renders apps. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML resource. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** What a client that renders apps declares in its capabilities. */
export const APPS_CAPABILITY = { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };

const MAX_URI_CHARS = 2048;

/** A tool's app: where its UI is, and who may call the tool. */
export interface ToolApp {
  /** The `ui://` resource of the app's HTML, on the tool's own server. */
  resourceUri: string;
  /** False when the server keeps the tool from the model: only its app calls it. */
  modelVisible: boolean;
}

/** The app a listed tool declares, or a problem with what it declared; neither for a plain tool. */
export function appOfTool(meta: unknown): { app?: ToolApp; problem?: string } {
  if (typeof meta !== 'object' || meta === null) return {};
  const m = meta as Record<string, unknown>;
  const ui = typeof m.ui === 'object' && m.ui !== null && !Array.isArray(m.ui) ? (m.ui as Record<string, unknown>) : undefined;
  const uri = ui?.resourceUri ?? m['ui/resourceUri'];
  if (uri === undefined) return {};
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(uri) || uri.length > MAX_URI_CHARS || /[\u0000-\u001f\u007f-\u009f]/.test(uri)) {
    return { problem: `declares an app at ${describe(uri)}, which is not a ui:// URI; its result is shown as text` };
  }
  const visibility = ui?.visibility;
  let modelVisible = true;
  if (visibility !== undefined) {
    if (!Array.isArray(visibility) || visibility.some((v) => v !== 'model' && v !== 'app')) {
      return { app: { resourceUri: uri, modelVisible }, problem: `has a _meta.ui.visibility that is not a list of "model" and "app"; the model is offered the tool` };
    }
    modelVisible = visibility.includes('model');
  }
  return { app: { resourceUri: uri, modelVisible } };
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return `a ${Array.isArray(value) ? 'list' : typeof value}`;
  const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?'));
}
