// How a server entry and a configuration problem read in tooltips, logs and the CLI.
import type { ConfigProblem, ServerConfig } from './serverConfig';
import { visibleLine } from '../../../shared/visibleText';
import { serverRedactor } from './serverRedactor';

export function describeProblem(p: ConfigProblem): string {
  const where = [p.server && `server "${p.server}"`, p.field && `field "${p.field}"`].filter(Boolean).join(', ');
  return where ? `${where}: ${p.message}` : p.message;
}

/**
 * The command line or URL of a server, for tooltips and logs, with its secrets redacted (URL
 * credentials and query, substituted values). Header values are never shown.
 */
export function describeEndpoint(config: ServerConfig): string {
  const redactor = serverRedactor(config);
  // One line, whoever shows it (the editor's dialogs and tooltips too, not only the CLI): a direction
  // override or zero-width mark in a workspace's argument shows as its escape, not as reordered text.
  if (config.type !== 'stdio')
    return visibleLine(`${config.type === 'sse' ? 'SSE' : 'HTTP'} ${redactor.redact(config.url)}`);
  return visibleLine(
    redactor.redact(
      [config.command, ...config.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '),
    ),
  );
}

/**
 * Where a stdio server starts and what it is given, as its entry wrote it (`${env:X}` unexpanded, so
 * nothing is shown that the entry did not write), each control or bidi character shown as its escape:
 * a workspace's `cwd`, `envFile` and `env` are part of what the user trusts when its servers start.
 * `hideWritten`: for the user's own entries, a value written as it is (no `${...}` in it: a key typed
 * into the user's settings) is not shown.
 */
export function describeLaunch(
  config: ServerConfig,
  { hideWritten = false }: { hideWritten?: boolean } = {},
): string[] {
  if (config.type !== 'stdio') return [];
  const w = config.written ?? {};
  const value = (v: string) =>
    hideWritten && !v.includes('${') ? '(written in your settings, not shown)' : visibleLine(v);
  return [
    `cwd: ${visibleLine(w.cwd ?? config.cwd)}`,
    ...(w.envFile !== undefined ? [`envFile: ${visibleLine(w.envFile)}`] : []),
    ...Object.entries(w.env ?? {}).map(([k, v]) => `env.${visibleLine(k)} = ${value(v)}`),
  ];
}
