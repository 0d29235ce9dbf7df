/**
 * The one line that explains why a server failed, for places with room for one line (a tree row, a
 * notification). The core's full messages stay as they are; this only picks and trims for display.
 */

/** A line that reports an error: `Error: ...`, `ModuleNotFoundError: ...`, `fatal: ...`, `panic: ...`, ENOENT. */
const ERROR_LINE =
  /\w*(Error|Exception)\b|\b(error|fatal|panic|FATAL|ERROR)\b|\b(ENOENT|EACCES|EADDRINUSE|ECONNREFUSED)\b|\bcannot\b|\bcould not\b|\bnot found\b|\bpermission denied\b/i;
/** Stack frames and headers that mention errors without explaining them. */
const NOT_THE_REASON = /^\s*(at\s|File "|Traceback \(most recent call last\)|node:internal\/|throw\s|\^+\s*$)/;

/** Whether a stderr line reports an error (it is logged as a warning rather than as information). */
export function isErrorLine(line: string): boolean {
  return !NOT_THE_REASON.test(line) && ERROR_LINE.test(line);
}

/** A tail's lines, trimmed, without the empty ones. */
function tailLines(stderrTail: string): string[] {
  return stderrTail
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** A tail's lines that the server wrote (not the sandbox's notes). */
function serverLines(stderrTail: string): string[] {
  return tailLines(stderrTail).filter((l) => !l.startsWith(SANDBOX_NOTE));
}

/** The first stderr line that reports an error, else the last non-empty line; undefined for no stderr. */
export function explainingLine(stderrTail: string): string | undefined {
  const lines = serverLines(stderrTail);
  return lines.find(isErrorLine) ?? lines[lines.length - 1];
}

/** How a sandbox's denial is written in a server's stderr tail (by its preload, or by the host that saw it). */
export const SANDBOX_NOTE = '[minagent sandbox] ';

/**
 * What a sandboxed server that failed was denied, for its message: ", in its sandbox (denied: write
 * /home/u/x and 2 more)", or '' when nothing was. A denial may be why it failed; its log says how to allow each.
 */
export function sandboxDenials(stderrTail: string): string {
  const denials = [
    ...new Set(
      tailLines(stderrTail)
        .filter((l) => l.startsWith(SANDBOX_NOTE))
        .map((l) => shortDenial(l.slice(SANDBOX_NOTE.length))),
    ),
  ];
  if (!denials.length) return '';
  return `, in its sandbox (denied: ${denials[0]}${denials.length > 1 ? ` and ${denials.length - 1} more` : ''}; its log says how to allow each)`;
}

/** A denial without its advice: up to its first parenthesis or semicolon, at most 120 characters. */
function shortDenial(text: string): string {
  const cut = text.split(/ \(|; /, 1)[0]!.trim();
  return cut.length > 120 ? `${cut.slice(0, 119)}…` : cut;
}

/** Lines that say nothing alone: punctuation left of a dumped object, Node's version trailer. */
const NOISE = /^([\]})[{(,;]+|Node\.js v\d[\w.-]*)$/;

/**
 * The part of a stderr tail that goes into a failure's message: the first line that reports the error
 * (a crash's "Error: Cannot find module ..."), else the last three lines that say something; never
 * "} | | Node.js v20.20.2" (the tail of a Node crash dump, which it was).
 */
export function stderrGist(stderrTail: string): string {
  const lines = serverLines(stderrTail).filter((l) => !NOISE.test(l));
  // The same line the tree's row shows (explainingLine), when one reports an error.
  return (
    lines.find(isErrorLine) ??
    lines
      .filter((l) => !NOT_THE_REASON.test(l))
      .slice(-3)
      .join(' | ')
  );
}

export interface ErrorSummary {
  /** What to show first: the explaining stderr line, or the message itself when there is no stderr. */
  line: string;
  /** The failure in a few words (e.g. "exited with code 1 during startup"), when `line` came from stderr. */
  status?: string;
}

/**
 * A failed server's message and stderr tail as one explaining line plus a short status. The message
 * keeps everything but what a row cannot use: the joined stderr (the line is picked from the tail
 * instead) and a spawn failure's PATH dump (the log has it).
 */
export function summarizeError(message: string, stderrTail: string): ErrorSummary {
  const head = message
    .split('; stderr: ')[0]!
    .replace(/; PATH=.*\)/, ')')
    .replace(/^server process /, '')
    .trim();
  const line = explainingLine(stderrTail);
  return line && line !== head ? { line, status: head } : { line: head };
}
