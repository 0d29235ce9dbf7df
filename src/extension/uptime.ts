import type * as vscode from 'vscode';

/** Running servers' tooltips without their uptime, completed when hovered. */
export const liveTooltips = new WeakMap<vscode.TreeItem, { text: string; startedAt: number }>();

/** "up 12 min (since 14:03:27)", as of `now`. */
export function uptimeLine(startedAt: number, now: number): string {
  const since = new Date(startedAt).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return `up ${formatUptime(now - startedAt)} (since ${since})`;
}

export function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
