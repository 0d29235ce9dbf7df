import * as vscode from 'vscode';
import { parseTyped } from '../../core/mcp/clientRequests/formSchema';
import type { FieldValue, FormField } from '../../shared/form';
import type { FormAnswer, FormAsk } from '../../core/mcp/clientRequests/ui';

/**
 * An elicitation form as a row of quick inputs (for asks that come during the tree's Try Tool):
 * Answer / Decline / Cancel first, then one input per field with its default filled in and the
 * core's check as the validation message. Escape at any step cancels. What the user leaves is the
 * answer: an emptied box, or "(none)" of an optional choice, is no value (the default is not put back).
 */
export async function quickForm(
  ask: FormAsk,
  validate: (c: Record<string, unknown>) => Record<string, string>,
  signal: AbortSignal,
): Promise<FormAnswer> {
  const cts = new vscode.CancellationTokenSource();
  const onAbort = () => cts.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const title = `Server "${ask.server}" asks`;
    const start = await vscode.window.showQuickPick(
      [
        { label: 'Answer', description: `${ask.fields.length} field(s)`, action: 'accept' as const },
        { label: 'Decline', action: 'decline' as const },
        { label: 'Cancel', action: 'cancel' as const },
      ],
      { title, placeHolder: ask.message, ignoreFocusOut: true },
      cts.token,
    );
    if (!start || start.action === 'cancel') return { action: 'cancel' };
    if (start.action === 'decline') return { action: 'decline' };
    const content: Record<string, FieldValue> = {};
    for (const [i, field] of ask.fields.entries()) {
      const step = `${title} (${i + 1}/${ask.fields.length}): ${field.label}${field.required ? '' : ' (optional)'}`;
      const value = await askField(field, step, content, validate, cts.token);
      if (value === CANCELLED) return { action: 'cancel' };
      if (value !== undefined) content[field.name] = value;
    }
    return { action: 'accept', content };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cts.dispose();
  }
}

const CANCELLED = Symbol('cancelled');

async function askField(
  field: FormField,
  title: string,
  content: Record<string, FieldValue>,
  validate: (c: Record<string, unknown>) => Record<string, string>,
  token: vscode.CancellationToken,
): Promise<FieldValue | undefined | typeof CANCELLED> {
  const placeHolder = field.description;
  switch (field.kind) {
    case 'boolean': {
      const items = [
        { label: 'Yes', value: true },
        { label: 'No', value: false },
      ];
      if (field.default === false) items.reverse();
      const picked = await vscode.window.showQuickPick(
        items,
        { title, ...(placeHolder ? { placeHolder } : {}), ignoreFocusOut: true },
        token,
      );
      return picked ? picked.value : CANCELLED;
    }
    case 'enum': {
      const items: Array<{ label: string; description: string; value: string | undefined; picked: boolean }> =
        field.options.map((o) => ({
          label: o.label,
          description: o.label === o.value ? '' : o.value,
          value: o.value,
          picked: o.value === field.default,
        }));
      items.sort((a, b) => Number(b.picked) - Number(a.picked));
      // An optional choice can be left without a value.
      if (!field.required) items.push({ label: '(none)', description: 'no value', value: undefined, picked: false });
      const picked = await vscode.window.showQuickPick(
        items,
        { title, ...(placeHolder ? { placeHolder } : {}), ignoreFocusOut: true },
        token,
      );
      return picked ? picked.value : CANCELLED;
    }
    case 'multi': {
      const items = field.options.map((o) => ({
        label: o.label,
        value: o.value,
        picked: field.default?.includes(o.value) ?? false,
      }));
      const picked = await vscode.window.showQuickPick(
        items,
        { title, canPickMany: true, ...(placeHolder ? { placeHolder } : {}), ignoreFocusOut: true },
        token,
      );
      return picked ? picked.map((p) => p.value) : CANCELLED;
    }
    default: {
      const typed = await vscode.window.showInputBox(
        {
          title,
          ...(placeHolder ? { prompt: placeHolder } : {}),
          value: field.default === undefined ? '' : String(field.default),
          ignoreFocusOut: true,
          // The box opens with the default: emptied, it holds no value.
          validateInput: (text) => validate({ ...content, [field.name]: parseTyped(field, text, 'none') })[field.name],
        },
        token,
      );
      return typed === undefined ? CANCELLED : parseTyped(field, typed, 'none');
    }
  }
}
