import { plainText } from './serverText';

/**
 * An elicitation form as the user fills it in, in the editor, the terminal or the chat's card: its
 * fields (read from the server's schema by core's formSchema.ts), the values it opens with, and the
 * check of the user's answers before they are sent. Pure: the webview bundles it too.
 */

export type FieldValue = string | number | boolean | string[];

interface FieldBase {
  /** The property name, as the server reads it back. */
  name: string;
  /** What the user sees: the title, else the name. */
  label: string;
  description?: string;
  required: boolean;
}

export interface EnumOption {
  value: string;
  label: string;
}

export type FormField =
  | (FieldBase & { kind: 'string'; default?: string; minLength?: number; maxLength?: number; format?: StringFormat })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'enum'; options: EnumOption[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: EnumOption[]; default?: string[]; minItems?: number; maxItems?: number });

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
export const FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

/** Bounds of a form a person can fill in; a larger one is refused rather than rendered. */
export const FORM_LIMITS = {
  fields: 50,
  nameChars: 100,
  titleChars: 200,
  descriptionChars: 2000,
  options: 100,
  optionChars: 200,
  stringChars: 100_000,
} as const;

/** The values a form opens with: each field's default, where it has one. */
export function initialValues(fields: readonly FormField[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const f of fields)
    if (f.default !== undefined) values[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
  return values;
}

/** What is wrong with each field of an answer (field name to message); empty when it may be sent. */
export function validateAnswers(
  fields: readonly FormField[],
  content: Record<string, unknown>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = content[f.name];
    const missing =
      v === undefined || v === '' || (Array.isArray(v) && v.length === 0 && f.kind === 'multi' && f.required);
    if (missing) {
      // A default does not answer a required field: the form opens with it, and a user who cleared it must fill it
      // again.
      if (f.required) errors[f.name] = `${f.label} is required`;
      continue;
    }
    const problem = fieldProblem(f, v);
    if (problem) errors[f.name] = `${f.label}: ${problem}`;
  }
  for (const key of Object.keys(content))
    if (!fields.some((f) => f.name === key)) errors[key] = `"${plainText(key, 60)}" is not a field of this form`;
  return errors;
}

function fieldProblem(f: FormField, v: unknown): string | undefined {
  switch (f.kind) {
    case 'string': {
      if (typeof v !== 'string') return 'must be text';
      if (v.length > FORM_LIMITS.stringChars) return `at most ${FORM_LIMITS.stringChars} characters`;
      if (f.minLength !== undefined && v.length < f.minLength) return `at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && v.length > f.maxLength) return `at most ${f.maxLength} characters`;
      return f.format ? formatProblem(f.format, v) : undefined;
    }
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (f.integer && !Number.isInteger(v)) return 'must be a whole number';
      if (f.minimum !== undefined && v < f.minimum) return `at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `at most ${f.maximum}`;
      return undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'enum':
      return typeof v === 'string' && f.options.some((o) => o.value === v) ? undefined : 'must be one of the options';
    case 'multi': {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && f.options.some((o) => o.value === x)))
        return 'must be some of the options';
      if (new Set(v).size !== v.length) return 'an option is chosen twice';
      if (f.minItems !== undefined && v.length < f.minItems) return `choose at least ${f.minItems}`;
      if (f.maxItems !== undefined && v.length > f.maxItems) return `choose at most ${f.maxItems}`;
      return undefined;
    }
  }
}

function formatProblem(format: StringFormat, v: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? undefined : 'must be an email address';
    case 'uri':
      return /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(v) && URL.canParse(v)
        ? undefined
        : 'must be a URI (e.g. https://example.com)';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'must be a date (YYYY-MM-DD)';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))
        ? undefined
        : 'must be a date and time (e.g. 2026-01-31T12:00:00Z)';
  }
}
