import { setting } from '../trustedSettings';

/**
 * Whether the chat shows servers' MCP Apps (`minagent.apps.enabled`); off: their results are text, and servers are not
 * told the chat renders apps.
 */
export function appsEnabled(): boolean {
  return setting<boolean>('apps.enabled', true);
}
