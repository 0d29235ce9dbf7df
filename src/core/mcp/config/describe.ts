// How a server entry and a configuration problem read in tooltips, logs and the CLI.
import type { ConfigProblem, ServerConfig } from './serverConfig';
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
  if (config.type !== 'stdio') return `${config.type === 'sse' ? 'SSE' : 'HTTP'} ${redactor.redact(config.url)}`;
  return redactor.redact([config.command, ...config.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '));
}
