import * as vscode from 'vscode';
import type { ResourceView } from '../../core/mcp/features/resourceView';
import { imageHtml } from './imageHtml';

type ImageView = Extract<ResourceView, { kind: 'image' }>;

/**
 * An image resource in an editor tab: a webview without scripts whose CSP allows only `data:`
 * images and its own inline style; the image is an `<img>` (an SVG's script never runs there).
 */
export function showImagePreview(title: string, view: ImageView, existing?: vscode.WebviewPanel): vscode.WebviewPanel {
  const panel =
    existing ??
    vscode.window.createWebviewPanel('minagent.resourceImage', title, vscode.ViewColumn.Active, {
      enableScripts: false,
      localResourceRoots: [],
    });
  panel.webview.html = imageHtml(title, view);
  return panel;
}
