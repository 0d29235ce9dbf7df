import * as vscode from 'vscode';
import { attachableResources } from '../../core/chat/attachments';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import type { ResourceRef } from './docUri';
import type { ResourceDocuments } from './resourceDocs';
import type { ResourceNode, ResourceTreeProvider } from './resourceTree';
import { fillTemplate } from './templateInput';

/** A resource to open or attach, with the label the user knows it by. */
export interface PickedResource extends ResourceRef {
  label: string;
}

/**
 * The resource a command is about: the tree node it was run on (a template is filled first), or
 * one picked from every server's resources and templates (from the palette). Undefined: cancelled.
 */
export async function resolveResource(
  hub: ServerHub,
  tree: ResourceTreeProvider,
  node: unknown,
  title: string,
  { documentsOnly = false } = {},
): Promise<PickedResource | undefined> {
  let n = asNode(node);
  if (!n) {
    // Add to Chat offers documents: not an app's ui:// page.
    const resources = documentsOnly ? attachableResources(hub.catalog.resources()) : hub.catalog.resources();
    const items = [
      ...resources.map((r) => ({
        label: r.title ?? r.name,
        description: r.server,
        detail: r.uri,
        node: { kind: 'resource', server: r.server, uri: r.uri } as ResourceNode,
      })),
      ...hub.catalog.templates().map((t) => ({
        label: t.title ?? t.name,
        description: `${t.server} · template`,
        detail: t.uriTemplate,
        node: { kind: 'template', server: t.server, uriTemplate: t.uriTemplate } as ResourceNode,
      })),
    ];
    if (!items.length) {
      void vscode.window.showInformationMessage('MinAgent: no running server offers resources.');
      return undefined;
    }
    n = (
      await vscode.window.showQuickPick(items, {
        title: `MinAgent: ${title}`,
        matchOnDescription: true,
        matchOnDetail: true,
      })
    )?.node;
    if (!n) return undefined;
  }
  if (n.kind === 'resource') {
    const r = tree.resource(n);
    return { server: n.server, uri: n.uri, label: r?.title ?? r?.name ?? n.uri };
  }
  if (n.kind === 'template') {
    const t = tree.template(n);
    if (!t) {
      void vscode.window.showErrorMessage(
        `MinAgent: server "${n.server}" no longer lists the template ${n.uriTemplate}.`,
      );
      return undefined;
    }
    const uri = await fillTemplate(hub.catalog, t);
    // Titled as the user knows it: the template's name and what was filled in ("A book · fiction/dune"), not the URI
    // mangled into a path.
    return uri === undefined
      ? undefined
      : { server: n.server, uri, label: `${t.title ?? t.name} · ${filledPart(uri)}` };
  }
  return undefined;
}

/** The part of a filled template's URI after its scheme, e.g. "books/fiction/dune" for library://books/fiction/dune. */
function filledPart(uri: string): string {
  return uri.replace(/^[a-z][\w+.-]*:\/*/i, '');
}

function asNode(node: unknown): ResourceNode | undefined {
  const n = node as Partial<Record<string, unknown>> | undefined;
  if (n?.kind === 'resource' && typeof n.server === 'string' && typeof n.uri === 'string')
    return { kind: 'resource', server: n.server, uri: n.uri };
  if (n?.kind === 'template' && typeof n.server === 'string' && typeof n.uriTemplate === 'string')
    return { kind: 'template', server: n.server, uriTemplate: n.uriTemplate };
  return undefined;
}

export function registerResourceCommands(
  hub: ServerHub,
  tree: ResourceTreeProvider,
  docs: ResourceDocuments,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('minagent.openResource', async (node?: unknown) => {
      const picked = await resolveResource(hub, tree, node, 'Open Resource');
      if (picked) await docs.open(picked, picked.label);
    }),
  ];
}
