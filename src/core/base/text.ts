/** The size of base64 data, in the bytes it stands for. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/** Keeps the head of `text` and says how much was cut. */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.length - maxChars;
  return `${text.slice(0, maxChars)}\n…[truncated: ${cut} of ${text.length} characters cut]`;
}
