// One server's sign-in in the browser: the authorization page opened (or printed) once its
// endpoint passed the checks, and the callback awaited on the issuer's own route (the mix-up defence).
import { randomBytes } from 'node:crypto';
import type { Logger } from '../base/logger';
import { endpointProblem } from './endpoints';
import { EndpointRefused } from './guardedFetch';
import { MixUpRefused, redirectRoute, type RedirectReceiver } from './redirect';
import { sameIssuer } from './discovery';
import { SignInNeeded } from './signInErrors';
import type { SignInUi } from './signInUi';

export interface BrowserSignInOptions {
  server: string;
  receiver: RedirectReceiver;
  ui: SignInUi;
  log: Logger;
  /** How long a sign-in waits for the browser to come back. */
  timeoutMs: number;
}

/** Who the callback must come from: the current issuer, and whether its metadata says it names itself (`iss`). */
export interface CallbackIssuer {
  issuer: string | undefined;
  issRequired: boolean;
}

export class BrowserSignIn {
  private currentState: string | undefined;
  private pending: Promise<URLSearchParams> | undefined;
  private abort = new AbortController();

  constructor(private readonly options: BrowserSignInOptions) {}

  /** A new `state` for the next authorization request. */
  state(): string {
    this.currentState = randomBytes(24).toString('base64url');
    return this.currentState;
  }

  /** A sign-in is waiting for the browser. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /**
   * Opens the authorization page of `url` and waits, in the background, for the browser to come back
   * through the route of `issuer` (the current authorization server) with the request's `state`.
   */
  open(url: URL, issuer: string | undefined, redirectUrl: () => string): void {
    const server = this.options.server;
    const problem = endpointProblem(url);
    if (problem)
      throw new EndpointRefused(`server "${server}": refused to open its authorization endpoint: it ${problem}`);
    const state = url.searchParams.get('state') ?? this.currentState;
    if (!state) throw new SignInNeeded(server, 'the authorization request has no state');
    const shownIssuer = issuer ?? url.origin;
    const signal = this.abort.signal;
    const timeoutMs = this.options.timeoutMs;
    const waiting = this.options.receiver.wait(
      { state, route: redirectRoute(issuer) },
      AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    );
    this.pending = (async () => {
      this.options.log.info(
        `sign-in: opening the authorization page of ${url.origin} (issuer ${shownIssuer}); it returns to ${redirectUrl()}`,
      );
      if (!(await this.options.ui.open(url, server, shownIssuer)))
        throw new SignInNeeded(server, 'sign-in was declined');
      try {
        return await waiting;
      } catch (err) {
        if (err instanceof MixUpRefused) throw err;
        throw new SignInNeeded(
          server,
          signal.aborted
            ? 'sign-in was cancelled'
            : `no answer from the browser within ${Math.round(timeoutMs / 1000)} s`,
        );
      }
    })();
    waiting.catch(() => undefined);
    this.pending.catch(() => undefined);
  }

  /**
   * Waits for the browser to come back; the callback's code and `iss` (checked by the SDK), or why there is no code.
   * An error that comes back is checked against `expect` first (RFC 9207 holds for error responses too): one in the
   * name of another authorization server, or without the `iss` its server says it sends, is refused as a mix-up.
   */
  async callback(expect: CallbackIssuer = { issuer: undefined, issRequired: false }): Promise<{
    code: string;
    iss: string | null;
  }> {
    const pending = this.pending;
    if (!pending) throw new SignInNeeded(this.options.server, 'no sign-in is in progress');
    let params: URLSearchParams;
    try {
      params = await pending;
    } finally {
      this.pending = undefined;
    }
    const code = params.get('code');
    if (!code) {
      const iss = params.get('iss');
      if (expect.issuer !== undefined && (iss === null ? expect.issRequired : !sameIssuer(iss, expect.issuer)))
        throw new MixUpRefused(
          `mix-up refused: an error came back ${iss === null ? 'without the issuer' : 'in the name of another authorization server than'} ${expect.issuer}${iss === null ? ' says it sends' : ''}; it was not taken as the answer`,
        );
      // The callback's error text is written by whoever sent the browser here: only a plain error code is shown.
      const error = params.get('error') ?? '';
      throw new SignInNeeded(
        this.options.server,
        `the authorization server did not sign you in${/^[a-z_]{1,40}$/.test(error) ? ` (${error})` : ''}`,
      );
    }
    return { code, iss: params.get('iss') };
  }

  /** Ends a sign-in that is waiting for the browser. */
  cancel(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.pending = undefined;
  }
}
