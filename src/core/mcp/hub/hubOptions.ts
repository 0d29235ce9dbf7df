import type { OutputChecker } from '../tools/outputCheck';
import type { ServerAuth } from '../../auth/provider';
import type { Logger } from '../../base/logger';
import type { ClientRequestsHost } from '../clientRequests/clientRequests';
import type { HubSettings } from '../config/hubSettings';
import type { ServerConfig } from '../config/serverConfig';
import type { EraMemory } from '../connection/eraMemory';
import type { SourceOptions } from '../connection/sourceOptions';
import type { McpTrace } from '../trace/trace';
import type { RestartPolicy } from './restarts';
import { sandboxFor, type SandboxRules } from '../sandbox/decision';

export interface HubOptions {
  logger?: Logger;
  settings?: HubSettings;
  /** Where one server's lines go (its own log view); defaults to `logger` with a `[name]` tag. */
  serverLogger?: (name: string) => Logger;
  /** How crashed servers come back; defaults to DEFAULT_RESTART_POLICY. */
  restart?: RestartPolicy;
  /** The OAuth client for an HTTP server (AuthManager.forServer); absent: no OAuth. */
  auth?: (config: ServerConfig, log: Logger) => ServerAuth | undefined;
  /** Answers servers' requests to the client (elicitation, sampling, roots); without it none are offered. */
  clientRequests?: ClientRequestsHost;
  /** The era each server spoke before, kept by the host (see EraMemory); default: this process's. */
  eras?: EraMemory;
  /** Which stdio servers run in a sandbox, and its defaults; absent: none does. */
  sandbox?: SandboxRules;
}

/**
 * A new source's options: the hub's settings read live (a settings change reaches running servers), the server's log,
 * trace and OAuth client.
 */
export function sourceOptions(
  config: ServerConfig,
  settings: () => HubSettings,
  logger: Logger,
  trace: McpTrace,
  options: HubOptions,
  outputs?: OutputChecker,
): SourceOptions {
  const live: SourceOptions = {
    logger,
    ...(outputs ? { outputs } : {}),
    get connectTimeoutMs() {
      return settings().connectTimeoutMs;
    },
    get probeTimeoutMs() {
      return settings().probeTimeoutMs;
    },
    get callTimeoutMs() {
      return settings().callTimeoutMs;
    },
    get maxOutputChars() {
      return settings().maxOutputChars;
    },
    get serverPriority() {
      return settings().serverPriority;
    },
    trace,
    ...(options.clientRequests ? { clientRequests: options.clientRequests } : {}),
    ...(options.eras ? { eras: options.eras } : {}),
  };
  const sandbox = sandboxFor(config, options.sandbox);
  if (sandbox) live.sandbox = sandbox;
  const auth = options.auth?.(config, logger);
  if (auth) live.auth = auth;
  return live;
}
