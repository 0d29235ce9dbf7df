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
import { TASKS_EXTENSION } from '../tasks/taskWire';
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/client/ext/skills';

/** The Tasks and Skills extensions, declared as their specifications say: an empty object each. */
const TASKS_CAPABILITY = { [TASKS_EXTENSION]: {}, [SKILLS_EXTENSION_ID]: {} };

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
  /** Answers one input request of a task (see ClientRequests.answerInput). */
  answerInput?(
    client: Client,
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<unknown>;
}

interface InputAnswers {
  'elicitation/create'(params: unknown, signal: AbortSignal): ReturnType<typeof answerElicitation>;
  'sampling/createMessage'(params: unknown, signal: AbortSignal): ReturnType<typeof answerSampling>;
  'roots/list'(params: unknown, signal: AbortSignal): Promise<{ roots: ReturnType<RootsSource['roots']> }>;
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
  private readonly answers = new WeakMap<Client, InputAnswers>();
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
    // Tasks (a server may answer any call with a task) and Skills always; MCP Apps where this host renders them.
    client.registerCapabilities({
      ...CLIENT_CAPABILITIES,
      extensions: { ...TASKS_CAPABILITY, ...(this.options.apps?.(config) ? APPS_CAPABILITY : {}) },
    });
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
    // One answer per kind of request: the SDK's handlers (a 2025 request, a 2026-07-28 round) and a task's input
    // requests (answerInput) go through the same ones, with the same approvals and limits.
    const answers: InputAnswers = {
      'elicitation/create': (params, signal) =>
        patiently(() =>
          answerElicitation(
            config.name,
            params as Parameters<typeof answerElicitation>[1],
            ui,
            log,
            signal,
            client.getProtocolEra() === 'modern',
          ),
        ),
      'sampling/createMessage': (params, signal) =>
        patiently(() =>
          answerSampling(config.name, identity, params as Parameters<typeof answerSampling>[2], sampling, log, signal),
        ),
      'roots/list': async () => ({ roots: roots.roots() }),
    };
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      answers['elicitation/create'](request.params, ctx.mcpReq.signal),
    );
    checkFormsFirst(client, config.name, log);
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      answers['sampling/createMessage'](request.params, ctx.mcpReq.signal),
    );
    client.setRequestHandler('roots/list', () => ({ roots: roots.roots() }));
    this.clients.set(client, log);
    this.answers.set(client, answers);
    return {
      dispose: () => {
        this.clients.delete(client);
        this.answers.delete(client);
      },
    };
  }

  /**
   * A sampling request from a server's app (MCP Apps, `sampling/createMessage` from the view): the same card, limits
   * and model as the server's own, named as the app's; "always" is for that app alone, not its server.
   */
  sampleForApp(
    config: ServerConfig,
    app: { tool: string; resourceUri: string },
    params: unknown,
    log: Logger,
    signal: AbortSignal,
  ): ReturnType<typeof answerSampling> {
    const sampling: SamplingDeps = { ...this.options.sampling, ui: this.options.ui };
    return answerSampling(
      config.name,
      `${serverIdentity(config)}#app:${app.resourceUri}`,
      params as Parameters<typeof answerSampling>[2],
      sampling,
      log,
      signal,
      app.tool,
    );
  }

  /**
   * Answers one input request a task carries (`inputRequests` of tasks/get) as the same request sent on its own would
   * be: a form, a URL, a sampling approval, the roots. A method MinAgent does not answer is refused.
   */
  answerInput(
    client: Client,
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ): Promise<unknown> {
    const answer = this.answers.get(client)?.[request.method as keyof InputAnswers];
    if (!answer)
      return Promise.reject(new Error(`a request MinAgent does not answer: ${JSON.stringify(request.method)}`));
    return answer(request.params ?? {}, signal);
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
