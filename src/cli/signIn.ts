import { AuthManager } from '../core/auth/manager';
import type { Interaction, SignInUi } from '../core/auth/signInUi';
import { shortHost } from '../core/auth/endpoints';
import { LoopbackReceiver } from '../core/auth/redirect';
import { defaultAuthFile, FileSecretStore } from '../core/auth/fileStore';
import type { ServerConfig } from '../core/mcp/config/serverConfig';
import type { Terminal } from './approve';

/**
 * How the CLI signs in to a server that needs OAuth. `print` (the default on a terminal): print the
 * authorization URL and wait for the browser to come back to a loopback address. `fetch`: follow
 * the URL with a plain HTTP request, for authorization servers that approve without a login page
 * (test suites). `none` (the default without a terminal): fail with a message naming `minagent login`.
 */
export type SignInMode = 'print' | 'fetch' | 'none';
export const SIGN_IN_MODES = ['print', 'fetch', 'none'] as const;

export function signInMode(flag: string | undefined, isTTY: boolean): SignInMode {
  if (flag !== undefined) return flag as SignInMode;
  return isTTY ? 'print' : 'none';
}

export interface CliAuth {
  manager: AuthManager;
  dispose(): Promise<void>;
}

/**
 * The CLI's OAuth: a loopback redirect, tokens in a 0600 file in the user's config folder. Undefined when no server
 * speaks HTTP.
 */
export async function cliAuth(
  servers: readonly ServerConfig[],
  mode: SignInMode,
  terminal: Terminal,
  options: { clientMetadataUrl?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliAuth | undefined> {
  if (!servers.some((s) => s.type !== 'stdio')) return undefined;
  const receiver = await LoopbackReceiver.start();
  const ui: SignInUi = {
    async open(url, server, issuer) {
      if (mode === 'fetch') {
        const res = await fetch(url);
        await res.text();
        return true;
      }
      terminal.note(
        `Sign in to server "${server}" at ${shortHost(url)} (authorization server ${shortHost(new URL(issuer))}): open this address in a browser (it returns to ${receiver.redirectUrlFor(issuer)}):\n  ${url.href}`,
      );
      return true;
    },
    ...(mode === 'print'
      ? {
          askClientId: async (server: string, issuer: string) =>
            (
              await terminal.question(
                `Server "${server}" (authorization server ${issuer}) offers no client registration. Client ID registered for MinAgent (empty to cancel): `,
              )
            ).trim() || undefined,
        }
      : {}),
  };
  const interaction: Interaction = mode === 'none' ? 'never' : 'always';
  const manager = new AuthManager({
    secrets: new FileSecretStore(defaultAuthFile(options.env)),
    receiver,
    ui,
    interaction,
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
  });
  return {
    manager,
    async dispose() {
      manager.dispose();
      await receiver.dispose();
    },
  };
}
