// A tool's progress in the user's words.

/**
 * A progress message in the user's words: the SDK reports each round of a 2026-07-28 server's
 * input requests as "Fulfilling input required by 'tools/call' (round 1)", its own internals.
 */
export function progressText(message: string): string {
  const round = /^Fulfilling input required by '[^']*' \(round (\d+)\)$/.exec(message)?.[1];
  if (round === undefined) return message;
  return round === '1' ? 'the server asked for your input' : `the server asked for your input (${round} times)`;
}
