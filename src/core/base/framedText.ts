/**
 * Text a server or an app wrote, set inside an element of a prompt (`<server-instructions>`,
 * `<app-context>`): the model is told whose words they are by the element around them, so nothing
 * inside may close it, open another, or speak outside it. `&`, `<` and `>` are written as entities
 * in the text and in the attributes' values (with `"`), which a model reads as the characters they
 * stand for, and no markup can come of them.
 */
export function framed(tag: string, attributes: Record<string, string | undefined>, text: string): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escaped(value).replace(/"/g, '&quot;')}"`)
    .join('');
  return `<${tag}${attrs}>\n${escaped(text)}\n</${tag}>`;
}

function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
