/**
 * Where an app's message (`ui/message`) goes in the chat's input: beside what the user typed,
 * never over it. An empty input takes it; an input that holds only what apps put there takes the
 * newest in its place; otherwise it goes after the user's text, a blank line between, replacing an
 * app's message already there at the end (so a chatty app leaves one message, not a pile).
 */
export function withAppMessage(current: string, lastFromApp: string | undefined, text: string): string {
  if (!current.trim() || current === lastFromApp) return text;
  const tail = lastFromApp === undefined ? undefined : `\n\n${lastFromApp}`;
  const own = tail !== undefined && current.endsWith(tail) ? current.slice(0, -tail.length) : current;
  return `${own.replace(/\s+$/, '')}\n\n${text}`;
}
