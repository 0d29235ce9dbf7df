import * as vscode from 'vscode';
import type { ServerHub, ServerInfo } from '../../core/mcp/hub/serverHub';
import { inputReferences, storedInputKey } from '../../core/mcp/config/storedInputs';
import { plansOf } from '../../core/serverRegistry/launch';
import { shownCommand } from '../../core/serverRegistry/shownCommand';
import { registryText } from '../../core/serverRegistry/serverJson';
import { settingsInputOrigin, type InputStore } from '../inputs';
import { markdownText } from '../../shared/markdownText';
import { visibleLine } from '../../shared/visibleText';
import type { Catalogs } from './catalogs';
import { browseRegistry } from './gallery';
import { writeServerSetting } from '../serverSettings';

type Scope = 'user' | 'workspace';

/** A settings entry as written, and the scope it is in (the workspace's when both have it: that one runs). */
function writtenEntry(name: string): { scope: Scope; entry: Record<string, unknown> } | undefined {
  const inspected = vscode.workspace.getConfiguration('minagent').inspect<Record<string, unknown>>('servers');
  for (const [scope, all] of [
    ['workspace', inspected?.workspaceValue],
    ['user', inspected?.globalValue],
  ] as const) {
    const entry = all?.[name];
    if (entry && typeof entry === 'object' && !Array.isArray(entry))
      return { scope, entry: entry as Record<string, unknown> };
  }
  return undefined;
}

/** The newer version a server's registry lists, when there is one. */
export function updateFor(info: ServerInfo, catalogs: Catalogs) {
  const origin = info.config.registry;
  if (!origin) return undefined;
  const latest = catalogs.latest(origin.url, origin.name);
  return latest && latest.server.version !== origin.version ? latest : undefined;
}

/**
 * A server row's registry: where it came from in the tooltip, "update available" when its registry
 * lists a newer version, and the context value for Update (and Remove, for any settings entry).
 */
export function registryLook(item: vscode.TreeItem, lines: string[], info: ServerInfo, catalogs: Catalogs): void {
  const origin = info.config.registry;
  if (origin) {
    lines.push(
      '',
      markdownText(
        `from the registry ${registryText(origin.url, 200)}: ${registryText(origin.name, 200)} ${registryText(origin.version, 50)}`,
      ),
    );
    item.contextValue = `${item.contextValue}.fromRegistry`;
    const newer = updateFor(info, catalogs);
    if (newer) {
      item.description = item.description
        ? `${String(item.description)} · update ${registryText(newer.server.version, 30)}`
        : `update ${registryText(newer.server.version, 30)}`;
      item.contextValue = `${item.contextValue}.updatable`;
    }
  }
  if (
    info.config.origin === 'workspace settings' ||
    info.config.origin === 'user settings' ||
    info.config.origin === undefined
  )
    item.contextValue = `${item.contextValue}.removable`;
}

export function registerRegistryCommands(
  hub: ServerHub,
  catalogs: Catalogs,
  inputs: InputStore,
  revealAdded: (server: string) => void,
): vscode.Disposable[] {
  const serverOf = (node: unknown) => {
    const name =
      node && typeof node === 'object' && 'name' in node && typeof node.name === 'string' ? node.name : undefined;
    return name ? hub.server(name) : undefined;
  };
  // At most once a day without being asked, and only while a server came from a registry: Update shows
  // up on its row when a newer version is listed. Nobody who never used a registry has it contacted.
  const check = () => {
    if (hub.servers().some((s) => s.config.registry)) void catalogs.refresh(false);
  };
  const first = setTimeout(check, 10_000);
  const daily = setInterval(check, 60 * 60 * 1000);
  return [
    { dispose: () => (clearTimeout(first), clearInterval(daily)) },
    vscode.commands.registerCommand('minagent.browseRegistry', async () => {
      const name = await browseRegistry(catalogs, inputs);
      if (name) revealAdded(name);
    }),
    vscode.commands.registerCommand('minagent.updateServer', async (node?: unknown) => {
      const info = serverOf(node);
      if (info) await update(info, catalogs);
    }),
    vscode.commands.registerCommand('minagent.removeServer', async (node?: unknown) => {
      const info = serverOf(node);
      if (info) await remove(info, inputs);
    }),
  ];
}

/**
 * Update: the entry's package at the version its registry now lists, after a modal showing the command line before and
 * after.
 */
async function update(info: ServerInfo, catalogs: Catalogs): Promise<void> {
  const newer = updateFor(info, catalogs);
  const written = writtenEntry(info.name);
  const origin = info.config.registry;
  if (!newer || !written || !origin) return;
  const next = updatedEntry(written.entry, newer.server, origin.version);
  if (!next) {
    void vscode.window.showErrorMessage(
      `MinAgent: "${info.name}" cannot be updated in place: version ${registryText(newer.server.version, 50)} runs differently. Remove it and add it again from the registry.`,
    );
    return;
  }
  const show = (e: Record<string, unknown>) =>
    typeof e.url === 'string'
      ? visibleLine(e.url)
      : shownCommand(String(e.command), ((e.args as unknown[]) ?? []).map(String));
  const go = 'Update';
  const answer = await vscode.window.showWarningMessage(
    `Update "${info.name}" from ${registryText(origin.version, 50)} to ${registryText(newer.server.version, 50)}?`,
    {
      modal: true,
      detail: `Before: ${show(written.entry)}\nAfter: ${show(next)}\nThe rest of the entry (its variables and secrets) is kept.`,
    },
    go,
  );
  if (answer !== go) return;
  await writeServerSetting(written.scope, info.name, next);
}

/**
 * The entry with the new version's package in place of the old one; undefined when it is not the same package run the
 * same way.
 */
function updatedEntry(
  entry: Record<string, unknown>,
  server: Parameters<typeof plansOf>[0],
  oldVersion: string,
): Record<string, unknown> | undefined {
  const registry = { ...(entry.registry as object), version: server.version };
  if (typeof entry.url === 'string') return server.remotes?.length ? { ...entry, registry } : undefined;
  const args = Array.isArray(entry.args) ? (entry.args as unknown[]).map(String) : [];
  for (const plan of plansOf(server).plans) {
    const spec = plan.runtime?.spec;
    if (!spec || plan.runtime!.command !== entry.command) continue;
    const at = args.findIndex((a) => a !== spec && a.replace(oldVersion, server.version) === spec);
    if (at >= 0) return { ...entry, args: args.map((a, i) => (i === at ? spec : a)), registry };
  }
  return undefined;
}

/** Remove: the entry from its settings and every `${input:}` value stored for it, after a modal. */
async function remove(info: ServerInfo, inputs: InputStore): Promise<void> {
  const written = writtenEntry(info.name);
  if (!written) {
    void vscode.window.showWarningMessage(
      `MinAgent: "${info.name}" is not in your user or workspace settings; remove it where it is defined.`,
    );
    return;
  }
  const secrets = inputReferences(written.entry);
  const go = 'Remove';
  const answer = await vscode.window.showWarningMessage(
    `Remove "${info.name}" from the ${written.scope} settings?`,
    {
      modal: true,
      detail: secrets.length ? `Its stored secrets (${secrets.join(', ')}) are deleted too.` : 'Its entry is deleted.',
    },
    go,
  );
  if (answer !== go) return;
  const origin = settingsInputOrigin(written.scope);
  for (const id of secrets) await inputs.store.delete(storedInputKey(origin, info.name, written.entry, id));
  await writeServerSetting(written.scope, info.name, undefined);
}
