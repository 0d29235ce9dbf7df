// What the era probe (`server/discover`) got, in words for the server's log and its error.

/** The probe was answered with something that is not a valid 2026-07-28 reply, and the 2025 handshake follows. */
export interface ProbeFallback {
  /**
   * What the probe got, as a predicate of "server/discover": "answered HTTP 500: ...", "did not answer within 15000
   * ms".
   */
  got: string;
  /**
   * An answer a failed handshake needs no help to explain: what a 2025 server gives (Method not
   * found; a stdio server that exits on it), or a list of other revisions. A failed handshake after
   * it says so alone.
   */
  ordinary?: boolean;
  /** No answer at all: a handshake that then timed out as well tells the same story, and says it alone. */
  silence?: boolean;
}

/** A JSON-RPC error to the probe; "Method not found" is what a 2025 server answers. */
export function rpcErrorAnswer(error: { code?: unknown; message?: unknown }): ProbeFallback {
  return {
    got: `answered a JSON-RPC error ${String(error.code)} (${clip(String(error.message ?? ''))})`,
    ...(error.code === -32601 ? { ordinary: true } : {}),
  };
}

/**
 * A result to the probe that did not make the server a 2026-07-28 one: a discover result of other revisions, or not
 * one.
 */
export function resultAnswer(result: unknown): ProbeFallback {
  const offered = (result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (Array.isArray(offered) && offered.length && offered.every((v) => typeof v === 'string')) {
    // What the handshake then says (a refusal that names the versions) explains it.
    return { got: `offered only protocol ${clip(offered.join(', '))}`, ordinary: true };
  }
  return { got: 'answered a result that is not a valid 2026-07-28 discover result' };
}

/**
 * A stdio server that ended while the probe waited: that is its answer (an SDK that exits on any request before
 * initialize).
 */
export function exitAnswer(exit: { code: number | null; signal: string | null } | undefined): ProbeFallback {
  const how = !exit ? '' : exit.signal ? ` (killed by ${exit.signal})` : ` (exit code ${exit.code})`;
  return { got: `did not answer: the server process ended on it${how}`, ordinary: true };
}

/** One line of at most 200 characters. */
export function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
