// How a sign-in reaches the user, and when it may.

/** How a sign-in reaches the user; the editor and the CLI each supply one. */
export interface SignInUi {
  /**
   * Opens (or prints) the authorization URL, saying first which authorization server (`issuer`)
   * the browser goes to; false when the user declined.
   */
  open(url: URL, server: string, issuer: string): Promise<boolean>;
  /** Last in the spec's order: asks for a client ID when the server offers no other way to get one. */
  askClientId?(server: string, issuer: string): Promise<string | undefined>;
  /** Asks before signing in again for a server that had a session (expired, or it needs more scope). */
  confirmReauthorization?(server: string): Promise<boolean>;
  /**
   * An entry with a client secret but no `oauth.issuer` (written before secrets were bound): asks
   * once whether the secret belongs to `issuer`, the authorization server the server names now,
   * and on yes writes it to the entry (which restarts the server; the sign-in goes on from there). Without it (the CLI)
   * such an entry is refused, with the line to add.
   */
  bindClientSecret?(server: string, issuer: string): Promise<boolean>;
}

/**
 * When a sign-in may reach the user: `always` (the CLI at a terminal), `ask` (the editor: only
 * after the user chose Sign In, or with their consent when a session needs renewing), `never`.
 */
export type Interaction = 'always' | 'ask' | 'never';

/** Whether one server's sign-in may reach the user now. */
export class Consent {
  /** The user chose Sign In: the next authorization may open the browser. */
  requested = false;

  constructor(
    private readonly server: string,
    private readonly interaction: Interaction,
    private readonly ui: SignInUi,
  ) {}

  /** Whether nothing is in the way of a request the user did not click for (`always`, or Sign In chosen). */
  get given(): boolean {
    return this.requested || this.interaction === 'always';
  }

  /**
   * Whether the user may be asked: always when given; with a session to renew (`hadSession`), after confirming, when
   * `ask`.
   */
  async mayInteract(hadSession: boolean): Promise<boolean> {
    if (this.given) return true;
    if (this.interaction === 'never' || !hadSession) return false;
    return (await this.ui.confirmReauthorization?.(this.server)) ?? false;
  }
}
