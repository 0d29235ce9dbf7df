/**
 * Server- or workspace-written text for a notification. VS Code turns `[text](command:…)` in a
 * notification into a link that runs the command, so a server name or a line of a server's stderr
 * could otherwise plant one; brackets lose their meaning here (the log has the text as it was).
 */
export function noticeText(text: string): string {
  return text.replace(/\[/g, '⟦').replace(/\]/g, '⟧');
}
