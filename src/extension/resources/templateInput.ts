import * as vscode from 'vscode';
import type { HubCatalog } from '../../core/mcp/hub/catalog';
import { isFeatureError, type McpResourceTemplate } from '../../core/mcp/features/featureTypes';
import { expandTemplate } from '../../core/mcp/features/resources';

/**
 * Asks for each variable of a resource template in a quick input, offering the server's
 * completions (`completion/complete`) as the user types where the server offers them. Resolves to
 * the filled URI, or undefined when the user cancels.
 */
export async function fillTemplate(catalog: HubCatalog, template: McpResourceTemplate): Promise<string | undefined> {
  const values: Record<string, string> = {};
  for (const [i, variable] of template.variables.entries()) {
    const value = await askVariable(catalog, template, variable, values, `${i + 1}/${template.variables.length}`);
    if (value === undefined) return undefined;
    values[variable] = value;
  }
  const uri = expandTemplate(template.uriTemplate, values);
  if (isFeatureError(uri)) {
    void vscode.window.showErrorMessage(`MinAgent: ${uri.error}`);
    return undefined;
  }
  return uri;
}

function askVariable(
  catalog: HubCatalog,
  template: McpResourceTemplate,
  variable: string,
  context: Record<string, string>,
  step: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
    pick.title = `${template.title ?? template.name} (${template.server}): ${variable} ${step}`;
    pick.placeholder = `Value for {${variable}} of ${template.uriTemplate}`;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = false;
    let asked = 0;
    let done = false;
    const complete = async (value: string) => {
      const mine = ++asked;
      pick.busy = true;
      const result = await catalog.completeTemplate(template.server, template.uriTemplate, variable, value, {
        ...context,
      });
      if (mine !== asked || done) return;
      pick.busy = false;
      // Labelled so that the quick pick's own sorting keeps the server's suggestions first.
      const typed = value ? [{ label: `Use "${value}"`, description: 'as typed', value }] : [];
      const offered = isFeatureError(result)
        ? []
        : result.values
            .filter((v) => v !== value)
            .slice(0, 100)
            .map((v) => ({ label: v, description: 'suggested by the server', value: v }));
      // The server's suggestions first (Enter takes the first), the value as typed last.
      pick.items = [...offered, ...typed];
    };
    pick.onDidChangeValue((value) => void complete(value));
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.value ?? pick.value;
      if (!value) return;
      done = true;
      resolve(value);
      pick.hide();
    });
    pick.onDidHide(() => {
      if (!done) resolve(undefined);
      done = true;
      pick.dispose();
    });
    pick.show();
    void complete('');
  });
}
