// cross-spawn's internal helpers used by spawnPlan.ts; the package ships no types for them.
declare module 'cross-spawn/lib/util/escape.js' {
  export function command(arg: string): string;
  export function argument(arg: string, doubleEscapeMetaChars?: boolean): string;
}
declare module 'cross-spawn/lib/util/resolveCommand.js' {
  export default function resolveCommand(parsed: {
    command: string;
    options: { env?: Record<string, string>; cwd?: string };
  }): string | undefined;
}
