import * as vscode from 'vscode';
import { plansOf, previewOf } from '../../core/serverRegistry/launch';
import { registryText } from '../../core/serverRegistry/serverJson';
import type { InputStore } from '../inputs';
import { addFromRegistry } from './addFromRegistry';
import type { Catalogs, Listed } from './catalogs';

interface Item extends vscode.QuickPickItem {
  listed: Listed;
}

/** Registry text in a quick pick: plain, and `$(name)` kept from becoming an icon. */
export function pickText(text: string, max = 300): string {
  return registryText(text, max).replace(/\$\(/g, '$\u2009(');
}

const REPOSITORY: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('link-external'),
  tooltip: 'Open the repository',
};

/**
 * The gallery: every server of the user's registries (as last read, then read again) in a quick
 * pick that searches names, titles and descriptions; each row shows the title, name, version,
 * publisher, the ways it runs and the exact command line or URL adding it writes. Accepting one adds
 * it (addFromRegistry); the row's button opens its repository. Resolves to the name the server was
 * added under, or undefined when none was.
 */
export async function browseRegistry(catalogs: Catalogs, inputs: InputStore): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'MinAgent: Add Server from Registry';
  pick.placeholder = `Search ${catalogs.registries().length === 1 ? 'the registry' : `${catalogs.registries().length} registries`} by name, title or description`;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const fill = () => {
    const active = pick.activeItems[0]?.listed.server.name;
    pick.items = catalogs.servers().map(toItem);
    const again = pick.items.find((i) => i.listed.server.name === active);
    if (again) pick.activeItems = [again];
  };
  fill();
  pick.busy = true;
  const done = new Promise<Listed | undefined>((resolve) => {
    pick.onDidAccept(() => {
      // Enter with nothing chosen (the list was refilled as the user typed) keeps the gallery open.
      const chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.listed;
      if (!chosen) return;
      pick.hide();
      resolve(chosen);
    });
    pick.onDidHide(() => resolve(undefined));
  });
  pick.onDidTriggerItemButton((e) => {
    const url = e.item.listed.server.repository?.url;
    if (url && /^https?:\/\//.test(url)) void vscode.env.openExternal(vscode.Uri.parse(url, true));
  });
  pick.show();
  void catalogs.refresh(true).then((problems) => {
    fill();
    pick.busy = false;
    if (!pick.items.length)
      pick.placeholder = problems.length
        ? 'The registry could not be read (see the notice)'
        : 'The registry lists no server';
    if (problems.length)
      void vscode.window.showWarningMessage(`MinAgent: ${problems.map((p) => registryText(p, 300)).join('; ')}`);
  });
  const chosen = await done;
  pick.dispose();
  return chosen ? addFromRegistry(chosen.server, chosen.registry, inputs) : undefined;
}

function toItem(listed: Listed): Item {
  const s = listed.server;
  const { plans } = plansOf(s);
  const publisher = s.name.split('/')[0] ?? '';
  const ways = plans.map((p) => p.kind).join(', ') || 'nothing MinAgent can run';
  const runs = plans[0] ? previewOf(s, plans[0]) : '';
  return {
    label: pickText(s.title || s.name, 120),
    description: pickText(`${s.name} ${s.version} · by ${publisher} · ${ways}`, 250),
    detail: pickText(`${s.description}${runs ? ` — ${runs}` : ''}`, 400),
    ...(s.repository?.url && /^https?:\/\//.test(s.repository.url) ? { buttons: [REPOSITORY] } : {}),
    listed,
  };
}
