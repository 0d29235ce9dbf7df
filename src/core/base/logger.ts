/** Logging goes through this interface so core code logs without a VS Code host. */
export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  trace() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that prefixes every line with a component or server tag, e.g. `[research]`. */
export function taggedLogger(base: Logger, tag: string): Logger {
  const p = `[${tag}] `;
  return {
    trace: (m) => base.trace(p + m),
    info: (m) => base.info(p + m),
    warn: (m) => base.warn(p + m),
    error: (m) => base.error(p + m),
  };
}

/** Writes to a stream (stderr for the CLI), filtered by level. */
export function streamLogger(write: (line: string) => void, verbose: boolean): Logger {
  return {
    trace: (m) => verbose && write(`trace ${m}`),
    info: (m) => verbose && write(`info  ${m}`),
    warn: (m) => write(`warn  ${m}`),
    error: (m) => write(`error ${m}`),
  };
}
