import { Redactor } from '../../base/redact';
import type { ServerConfig } from './serverConfig';

/** The redactor for one server's secrets: its substituted values and its URL's credentials and query. */
export function serverRedactor(config: ServerConfig): Redactor {
  const redactor = new Redactor();
  for (const s of config.secrets ?? []) redactor.addSecret(s);
  if (config.type !== 'stdio') {
    redactor.addUrl(config.url);
    for (const v of Object.values(config.headers)) redactor.addSecret(v);
  }
  return redactor;
}
