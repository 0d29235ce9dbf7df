import type { Edit, Node } from 'jsonc-parser';

/** How a file lays itself out: one level of indentation (spaces or a tab) and its line end. */
export interface Layout {
  unit: string;
  eol: string;
}

/**
 * Edits of one property of a JSONC object that touch nothing else, for files people write by hand
 * (settings): a new property goes on its own line after the last one, indented as that one is, with a
 * comma added after the last (or one of its own where the object ends in a trailing comma); a removed
 * property takes its own lines with it, and the comma its insertion added. So removing what was
 * added gives the text back byte for byte. Undefined where the layout is not one property a line
 * (`{ "a": 1, "b": 2 }`): the caller falls back to a general edit.
 */
export function insertProperty(
  text: string,
  object: Node,
  name: string,
  value: unknown,
  format: Layout,
): Edit[] | undefined {
  const close = object.offset + object.length - 1;
  const last = object.children?.at(-1);
  if (!last) {
    const inner = text.slice(object.offset + 1, close);
    const indent = indentOf(text, object.offset);
    const inside = indent + format.unit;
    const property = `${inside}${propertyText(name, value, inside, format)}`;
    if (!inner.trim())
      return [
        { offset: object.offset + 1, length: inner.length, content: `${format.eol}${property}${format.eol}${indent}` },
      ];
    // Only the user's comments inside: after them, on a line of its own.
    const after = object.offset + 1 + inner.trimEnd().length;
    if (!text.slice(after, close).includes('\n')) return undefined;
    return [{ offset: after, length: 0, content: `${format.eol}${property}` }];
  }
  const end = last.offset + last.length;
  const comma = commaAfter(text, end);
  const lineEnd = endOfLine(text, comma ?? end);
  if (!startsLine(text, last.offset) || lineEnd === undefined || lineEnd >= close) return undefined;
  const indent = indentOf(text, last.offset);
  return [
    ...(comma === undefined ? [{ offset: end, length: 0, content: ',' }] : []),
    {
      offset: lineEnd,
      length: 0,
      content: `${format.eol}${indent}${propertyText(name, value, indent, format)}${comma === undefined ? '' : ','}`,
    },
  ];
}

/** Removes `property` (a property node of `object`) with its lines; undefined where it shares a line with another. */
export function removeProperty(text: string, object: Node, property: Node): Edit[] | undefined {
  const siblings = object.children ?? [];
  const at = siblings.indexOf(property);
  const end = property.offset + property.length;
  const comma = commaAfter(text, end);
  const lineEnd = endOfLine(text, comma ?? end);
  const close = object.offset + object.length - 1;
  if (at < 0 || !startsLine(text, property.offset) || lineEnd === undefined || lineEnd >= close) return undefined;
  const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
  if (lineStart <= object.offset) return undefined;
  const from = lineStart - (text[lineStart - 2] === '\r' ? 2 : 1);
  const edits: Edit[] = [{ offset: from, length: lineEnd - from, content: '' }];
  // The last one, without a trailing comma: the comma before it goes too.
  const before = siblings[at - 1];
  if (comma === undefined && before) {
    const separator = commaAfter(text, before.offset + before.length);
    if (separator !== undefined) edits.push({ offset: separator - 1, length: 1, content: '' });
  }
  return edits;
}

/** `"name": value`, the value laid out as JSON.stringify does, indented from the property's line. */
export function propertyText(name: string, value: unknown, indent: string, format: Layout): string {
  return `${JSON.stringify(name)}: ${valueText(value, indent, format)}`;
}

export function valueText(value: unknown, indent: string, format: Layout): string {
  return JSON.stringify(value, null, format.unit).split('\n').join(`${format.eol}${indent}`);
}

/** The leading whitespace of the line that holds `offset`. */
export function indentOf(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function startsLine(text: string, offset: number): boolean {
  return indentOf(text, offset).length === offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** The offset just past a comma that follows `offset` (across spaces and comments), if one does. */
function commaAfter(text: string, offset: number): number | undefined {
  let i = offset;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) < 0 ? text.length : text.indexOf('*/', i) + 2;
    else return text[i] === ',' ? i + 1 : undefined;
  }
}

/** Where the line of `offset` ends (before its line break), when the rest of it is only spaces and comments. */
function endOfLine(text: string, offset: number): number | undefined {
  const newline = text.indexOf('\n', offset);
  const end = newline < 0 ? text.length : newline - (text[newline - 1] === '\r' ? 1 : 0);
  return /^[ \t]*(\/\/.*|\/\*.*?\*\/[ \t]*)?$/.test(text.slice(offset, end)) ? end : undefined;
}
