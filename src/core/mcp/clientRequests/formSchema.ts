import { plainText } from '../../../shared/serverText';
import {
  FORM_LIMITS,
  FORMATS,
  type EnumOption,
  type FieldValue,
  type FormField,
  type StringFormat,
} from '../../../shared/form';

/**
 * The restricted JSON schema of a form-mode elicitation (a flat object of strings, numbers,
 * booleans and enums), read into fields a UI can render, with the spec's defaults and a check of
 * the user's answers. A schema outside the restricted form, or larger than a form a person can
 * fill in, is refused with an error that names the server and the field.
 *
 * Defaults are what a form opens with (`initialValues`), never what is sent for a field the user
 * emptied: an answer keeps what the user left (`answerContent`), so a cleared field or "(none)"
 * reaches the server as no value, and a required field the user cleared must be filled again.
 */

export class FormSchemaError extends Error {
  constructor(server: string, field: string | undefined, problem: string) {
    super(
      `server "${server}" sent an elicitation form MinAgent cannot show: ${field === undefined ? '' : `field "${plainText(field, 60)}": `}${problem}`,
    );
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The fields of a form-mode `requestedSchema`, in the server's order; throws FormSchemaError. */
export function parseFormSchema(server: string, schema: unknown): FormField[] {
  const fail = (field: string | undefined, problem: string): never => {
    throw new FormSchemaError(server, field, problem);
  };
  if (!isObj(schema) || schema.type !== 'object')
    fail(undefined, 'the schema is not an object schema ("type": "object")');
  const s = schema as Obj;
  const props = s.properties ?? {};
  if (!isObj(props)) return fail(undefined, '"properties" is not an object');
  const names = Object.keys(props);
  if (names.length > FORM_LIMITS.fields) fail(undefined, `${names.length} fields (at most ${FORM_LIMITS.fields})`);
  const required = s.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
    fail(undefined, '"required" is not a list of field names');
  for (const r of required as string[])
    if (!Object.hasOwn(props, r)) fail(r, 'is required but not defined in "properties"');
  return names.map((name) => parseField(name, props[name], (required as string[]).includes(name), fail));
}

function parseField(
  name: string,
  raw: unknown,
  required: boolean,
  fail: (field: string | undefined, problem: string) => never,
): FormField {
  if (name.length === 0 || name.length > FORM_LIMITS.nameChars || /[\u0000-\u001f\u007f]/.test(name))
    fail(name, `the name must be 1 to ${FORM_LIMITS.nameChars} printable characters`);
  if (!isObj(raw)) return fail(name, 'its schema is not an object');
  const text = (key: 'title' | 'description', max: number): string | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') fail(name, `"${key}" is not a string`);
    if ((v as string).length > max)
      fail(name, `"${key}" is ${(v as string).length.toLocaleString('en')} characters (at most ${max})`);
    return plainText(v, max);
  };
  const title = text('title', FORM_LIMITS.titleChars);
  const description = text('description', FORM_LIMITS.descriptionChars);
  const base = {
    name,
    label: title || plainText(name, FORM_LIMITS.nameChars),
    required,
    ...(description ? { description } : {}),
  };
  const bound = (key: string): number | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(name, `"${key}" is not a number`);
    return v as number;
  };
  const count = (key: string): number | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (!isCount(v)) fail(name, `"${key}" is not a whole number`);
    return v as number;
  };
  const dflt = raw.default;
  const hasDefault = Object.hasOwn(raw, 'default');
  const options = enumOptions(name, raw, fail);
  switch (raw.type) {
    case 'string': {
      if (options) {
        if (hasDefault && !(typeof dflt === 'string' && options.some((o) => o.value === dflt)))
          fail(name, '"default" is not one of its options');
        return { ...base, kind: 'enum', options, ...(hasDefault ? { default: dflt as string } : {}) };
      }
      const format = raw.format;
      if (format !== undefined && !FORMATS.includes(format as StringFormat))
        fail(name, `"format" must be one of ${FORMATS.join(', ')}`);
      const minLength = count('minLength');
      const maxLength = count('maxLength');
      if (hasDefault && (typeof dflt !== 'string' || dflt.length > FORM_LIMITS.stringChars))
        fail(name, '"default" is not a string of a sensible length');
      return {
        ...base,
        kind: 'string',
        ...(hasDefault ? { default: dflt as string } : {}),
        ...(minLength !== undefined ? { minLength } : {}),
        ...(maxLength !== undefined ? { maxLength } : {}),
        ...(format ? { format: format as StringFormat } : {}),
      };
    }
    case 'number':
    case 'integer': {
      const integer = raw.type === 'integer';
      const minimum = bound('minimum');
      const maximum = bound('maximum');
      if (hasDefault && (typeof dflt !== 'number' || !Number.isFinite(dflt) || (integer && !Number.isInteger(dflt))))
        fail(name, `"default" is not ${integer ? 'an integer' : 'a number'}`);
      return {
        ...base,
        kind: 'number',
        integer,
        ...(hasDefault ? { default: dflt as number } : {}),
        ...(minimum !== undefined ? { minimum } : {}),
        ...(maximum !== undefined ? { maximum } : {}),
      };
    }
    case 'boolean':
      if (hasDefault && typeof dflt !== 'boolean') fail(name, '"default" is not true or false');
      return { ...base, kind: 'boolean', ...(hasDefault ? { default: dflt as boolean } : {}) };
    case 'array': {
      const items = isObj(raw.items) ? enumOptions(name, raw.items, fail) : undefined;
      if (!items) return fail(name, 'an array field must list its options ("items" with "enum" or "anyOf")');
      const minItems = count('minItems');
      const maxItems = count('maxItems');
      if (hasDefault && !(Array.isArray(dflt) && dflt.every((d) => items.some((o) => o.value === d))))
        fail(name, '"default" is not a list of its options');
      return {
        ...base,
        kind: 'multi',
        options: items,
        ...(hasDefault ? { default: [...(dflt as string[])] } : {}),
        ...(minItems !== undefined ? { minItems } : {}),
        ...(maxItems !== undefined ? { maxItems } : {}),
      };
    }
    default:
      return fail(
        name,
        `type ${JSON.stringify(raw.type) ?? 'undefined'} is not one of string, number, integer, boolean, array`,
      );
  }
}

/** The options of an enum schema: `enum` (with the older `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function enumOptions(
  name: string,
  raw: Obj,
  fail: (field: string | undefined, problem: string) => never,
): EnumOption[] | undefined {
  let options: EnumOption[] | undefined;
  if (raw.enum !== undefined) {
    if (!Array.isArray(raw.enum) || !raw.enum.every((v) => typeof v === 'string'))
      return fail(name, '"enum" is not a list of strings');
    const names = Array.isArray(raw.enumNames) ? raw.enumNames : [];
    options = (raw.enum as string[]).map((value, i) => ({
      value,
      label: typeof names[i] === 'string' ? (names[i] as string) : value,
    }));
  } else {
    const list = raw.oneOf ?? raw.anyOf;
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || !list.every((o) => isObj(o) && typeof o.const === 'string'))
      return fail(name, '"oneOf"/"anyOf" must be a list of {"const": "...", "title": "..."}');
    options = (list as Obj[]).map((o) => ({
      value: o.const as string,
      label: typeof o.title === 'string' ? o.title : (o.const as string),
    }));
  }
  if (options.length === 0) fail(name, 'it has no options');
  if (options.length > FORM_LIMITS.options) fail(name, `${options.length} options (at most ${FORM_LIMITS.options})`);
  for (const o of options)
    if (o.value.length > FORM_LIMITS.optionChars || o.label.length > FORM_LIMITS.optionChars)
      fail(name, `an option is longer than ${FORM_LIMITS.optionChars} characters`);
  return options.map((o) => ({ value: o.value, label: plainText(o.label, FORM_LIMITS.optionChars) }));
}

/**
 * The answer as the server gets it: only the form's fields, each as the user left it. A field left
 * empty (cleared, or "(none)") is left out; its default is not put back, since the form showed it
 * and the user removed it.
 */
export function answerContent(
  fields: readonly FormField[],
  content: Record<string, unknown>,
): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of fields) {
    const v = content[f.name];
    if (v !== undefined && v !== '') out[f.name] = v as FieldValue;
  }
  return out;
}

/**
 * Reads what a user typed for a field as the field's value. Empty text is the field's default at a
 * prompt that offers it on Enter (`empty: 'default'`, the CLI's), and no value in a box that opened
 * with the default filled in (`empty: 'none'`, the editor's: emptying it removed the default).
 */
export function parseTyped(f: FormField, typed: string, empty: 'default' | 'none' = 'default'): FieldValue | undefined {
  const t = typed.trim();
  if (t === '')
    return empty === 'default' && f.default !== undefined
      ? Array.isArray(f.default)
        ? [...f.default]
        : f.default
      : undefined;
  switch (f.kind) {
    case 'number':
      return Number(t);
    case 'boolean':
      return /^(y|yes|true|1|on)$/i.test(t)
        ? true
        : /^(n|no|false|0|off)$/i.test(t)
          ? false
          : (t as unknown as boolean);
    case 'multi':
      return t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return typed;
  }
}
