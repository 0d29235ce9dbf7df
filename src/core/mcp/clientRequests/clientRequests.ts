import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { Disposable } from '../../base/event';
import type { Logger } from '../../base/logger';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type { ServerConfig } from '../config/serverConfig';
import { serverIdentity } from '../config/identity';
import { answerElicitation } from './elicitation';
import { holdTimeouts } from './patience';
import { UserWaitClock } from './userWait';
import { checkFormsFirst } from './preflight';
import type { RootsSource } from './roots';
import { answerSampling, type SamplingDeps } from './sampling';
import type { ClientRequestUi } from './ui';
import { APPS_CAPABILITY } from '../../apps/appMeta';

/**
 * What MinAgent offers servers: form and URL elicitation, sampling, and roots with change
 * notifications. A form opens with the schema's defaults filled in; the answer is what the user
 * left, so the SDK is not asked to apply defaults afterwards (`applyDefaults` would put a default
 * back into a field the user cleared).
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: true },
};

export interface ClientRequestsOptions {
  ui: ClientRequestUi;
  roots: RootsSource;
  sampling: Omit<SamplingDeps, 'ui'>;
  /** Whether this host renders the server's MCP Apps (declared to it as the apps extension); default: no. */
  apps?: (config: ServerConfig) => boolean;
}

/** What a source calls on each client it makes, before connecting; disposed with the connection. */
export interface ClientRequestsHost {
  install(client: Client, config: ServerConfig, log: Logger): Disposable;
}

/** The time each server kept the user answering its requests (forms, sampling approvals). */
export interface UserWait {
  waitedMs(server: string): number;
}

/**
 * Declares the client capabilities and registers the elicitation, sampling and roots handlers on
 * every client a source makes, through the SDK. The SDK carries both eras to the same handlers: a
 * 2025-11-25 server-to-client request, and a 2026-07-28 `input_required` round (fulfilled by its
 * multi-round-trip driver, which then retries the call). Tells every connected server when the
 * roots change.
 */
export class ClientRequests implements ClientRequestsHost, Disposable {
  private readonly clients = new Map<Client, Logger>();
  private readonly rootsListener: Disposable;
  /** Per server, the time its requests kept the user answering: a call's card leaves it out of the call's duration. */
  readonly userWait = new UserWaitClock();

  constructor(private readonly options: ClientRequestsOptions) {
    this.rootsListener = options.roots.onDidChange(() => this.rootsChanged());
  }

  install(client: Client, config: ServerConfig, log: Logger): Disposable {
    const { ui, roots } = this.options;
    const sampling: SamplingDeps = { ...this.options.sampling, ui };
    const identity = serverIdentity(config);
    client.registerCapabilities(
      this.options.apps?.(config) ? { ...CLIENT_CAPABILITIES, extensions: APPS_CAPABILITY } : CLIENT_CAPABILITIES,
    );
    // While the user answers, the call that caused the request does not time out (see patience.ts).
    const patiently = async <T>(run: () => Promise<T>): Promise<T> => {
      const release = holdTimeouts(client);
      const answered = this.userWait.begin(config.name);
      try {
        return await run();
      } finally {
        answered();
        release();
      }
    };
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      patiently(() =>
        answerElicitation(
          config.name,
          request.params,
          ui,
          log,
          ctx.mcpReq.signal,
          client.getProtocolEra() === 'modern',
        ),
      ),
    );
    checkFormsFirst(client, config.name, log);
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      patiently(() => answerSampling(config.name, identity, request.params, sampling, log, ctx.mcpReq.signal)),
    );
    client.setRequestHandler('roots/list', () => ({ roots: roots.roots() }));
    this.clients.set(client, log);
    return { dispose: () => this.clients.delete(client) };
  }

  private rootsChanged(): void {
    for (const [client, log] of this.clients) {
      // 2026-07-28 removed the notification: a server of that revision gets the roots with each request it makes.
      if (!client.transport || client.getProtocolEra() === 'modern') continue;
      client
        .sendRootsListChanged()
        .catch((err: unknown) => log.warn(`telling the server that the roots changed failed: ${errorMessage(err)}`));
    }
  }

  dispose(): void {
    this.rootsListener.dispose();
    this.clients.clear();
  }
}
