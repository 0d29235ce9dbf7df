import type { McpUiDisplayMode, McpUiHostContext, McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLook } from '../../shared/protocol';

/** The most an app may ask its frame to grow to (CSS pixels); past it, the app scrolls. */
export const MAX_APP_HEIGHT = 800;
/** A pinned app's height bound: a strip above the input, the conversation scrolling above it. */
export const MAX_PIP_HEIGHT = 240;
/** Every place MinAgent can show an app: its card, an editor tab, pinned above the input. */
export const HOST_MODES: readonly McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** A tool as the app is told of it (the spec's toolInfo). */
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/**
 * What an app is told of its host on `ui/initialize` and each change: the tool call that made it, the theme, its style
 * variables and fonts, where it is shown and the places it may ask for (`modes`: the host's, narrowed to those the app
 * declared), its room, and the user's locale.
 */
export function hostContext(
  look: AppLook,
  mode: McpUiDisplayMode,
  tool: ToolInfo,
  modes: readonly McpUiDisplayMode[] = HOST_MODES,
): McpUiHostContext {
  const fonts = fontsCss(look.variables);
  return {
    toolInfo: {
      tool: {
        name: tool.name,
        // The spec's shape needs an object schema: an app is never refused its start over the server's odd schema.
        inputSchema: { ...tool.inputSchema, type: 'object' },
        ...(tool.description ? { description: tool.description } : {}),
      },
    },
    theme: look.theme,
    styles: { variables: look.variables as McpUiStyles, ...(fonts ? { css: { fonts } } : {}) },
    displayMode: mode,
    availableDisplayModes: [...modes],
    // In a tab the app fills the editor; in a card it grows up to the bound, then scrolls; pinned, a strip.
    containerDimensions:
      mode === 'fullscreen'
        ? { width: look.width }
        : { width: look.width, maxHeight: mode === 'pip' ? MAX_PIP_HEIGHT : MAX_APP_HEIGHT },
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
  };
}

/** Generic families and keywords: nothing to load. */
const GENERIC =
  /^(serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-sans-serif|ui-serif|ui-monospace|ui-rounded|emoji|math|fangsong|-apple-system|blinkmacsystemfont|inherit|initial|unset)$/i;

/**
 * The editor's fonts as `@font-face` rules (the spec's `styles.css.fonts`): each named family of `--font-sans` and
 * `--font-mono`, loaded from the user's own machine (`local()`), so an app that applies the host's fonts gets exactly
 * the faces the editor uses. A name with anything but letters, digits, spaces, dots and dashes is left out (a workspace
 * can set the editor's font: it must not write CSS into an app). Undefined when there is no such name.
 */
export function fontsCss(variables: Readonly<Record<string, string>>): string | undefined {
  const names = new Set<string>();
  for (const key of ['--font-sans', '--font-mono']) {
    for (const part of (variables[key] ?? '').split(',')) {
      const name = part.trim().replace(/^(["'])(.*)\1$/, '$2');
      if (name && !GENERIC.test(name) && /^[\p{L}\p{N} .-]{1,64}$/u.test(name)) names.add(name);
    }
  }
  if (!names.size) return undefined;
  return [...names]
    .slice(0, 16)
    .map((n) => `@font-face { font-family: "${n}"; src: local("${n}"); }`)
    .join('\n');
}

/** The display modes an app declared (`appCapabilities.availableDisplayModes`) that the host has; all when none. */
export function declaredModes(declared: unknown): McpUiDisplayMode[] {
  if (!Array.isArray(declared)) return [...HOST_MODES];
  return HOST_MODES.filter((m) => declared.includes(m));
}
