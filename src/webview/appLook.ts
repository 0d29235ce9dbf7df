import type { AppLook } from '../shared/protocol';

/** The spec's style variables, each from the VS Code theme variable that plays its part. */
const VARIABLES: ReadonlyArray<[spec: string, vscode: string]> = [
  ['--color-background-secondary', '--vscode-editorWidget-background'],
  ['--color-text-primary', '--vscode-foreground'],
  ['--color-text-secondary', '--vscode-descriptionForeground'],
  ['--color-text-danger', '--vscode-errorForeground'],
  ['--color-border-primary', '--vscode-widget-border'],
  ['--color-ring-primary', '--vscode-focusBorder'],
  ['--font-sans', '--vscode-font-family'],
  ['--font-mono', '--vscode-editor-font-family'],
];

/**
 * How this page looks, as the spec's theme and style variables read from VS Code's theme variables;
 * `background` is the variable of the surface the app sits on (the sidebar's, or an editor's).
 */
export function appLook(background: string): AppLook {
  const css = getComputedStyle(document.body);
  const variables: Record<string, string> = {};
  for (const [spec, vscodeName] of [['--color-background-primary', background] as const, ...VARIABLES]) {
    const value = css.getPropertyValue(vscodeName).trim();
    if (value) variables[spec] = value;
  }
  // High contrast light carries vscode-high-contrast too: it is a light theme.
  const classes = document.body.classList;
  const dark =
    classes.contains('vscode-dark') ||
    (classes.contains('vscode-high-contrast') && !classes.contains('vscode-high-contrast-light'));
  return { theme: dark ? 'dark' : 'light', variables, width: Math.round(document.body.clientWidth) };
}

/** Calls `changed` whenever VS Code changes the theme (the body's class). */
export function onThemeChange(changed: () => void): void {
  new MutationObserver(changed).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** An app's frame: sandboxed to scripts alone (no same origin, no top navigation, no popups, no forms). */
export function appIframe(url: string, title: string): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('referrerpolicy', 'no-referrer');
  iframe.setAttribute('title', title);
  iframe.src = url;
  return iframe;
}
