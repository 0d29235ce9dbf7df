import { createInterface } from 'node:readline';
import type { ProgressLine } from './progressLine';
import type { ApprovalRequest } from '../core/agentTypes/events';
import { stderr, terminalLine } from './terminalText';
import type { ApprovalPolicy } from '../core/approvals/approvalPolicy';
import type { GrantStorage } from '../core/approvals/alwaysAllow';

/**
 * Who decides whether a tool call of `minagent chat` runs. `ask` (the default on a terminal):
 * read-only tools run, others ask on the terminal. `readonly` (the default without a terminal):
 * read-only tools run, others are denied. `all` (`--yes`): everything runs. `none`: nothing runs.
 */
export type ApproveMode = 'ask' | 'all' | 'readonly' | 'none';

export const APPROVE_MODES = ['all', 'readonly', 'none'] as const;

/** The mode from `--approve` / `--yes`, else by whether stdin and stderr are a terminal. */
export function approveMode(flag: string | undefined, yes: boolean, isTTY: boolean): ApproveMode {
  if (yes) return 'all';
  if (flag !== undefined) return flag as ApproveMode;
  return isTTY ? 'ask' : 'readonly';
}

/**
 * `minagent.chat.approval` of the user's settings, as the editor reads it: `readOnly` unless it is `always` or `never`.
 */
export function approvalSetting(value: unknown): string {
  return value === 'always' || value === 'never' ? value : 'readOnly';
}

/** The CLI keeps no "Always allow": each run starts from the settings alone. */
export const NO_GRANTS: GrantStorage = { get: (_key, fallback) => fallback, update: async () => undefined };

export interface Terminal {
  /** Asks one question and resolves with the answer line. */
  question(text: string, signal?: AbortSignal): Promise<string>;
  note(line: string): void;
}

/**
 * An approver for the Agent, on the same policy as the editor's chat (core/approvals/approvalPolicy.ts:
 * a server's `autoApprove` and `trusted`, the read-only rule, `minagent.chat.approval` of the user's
 * settings); what it does not allow is up to `mode`. Questions are asked one at a time, in the order
 * the calls came.
 */
export function cliApprover(
  mode: ApproveMode,
  terminal: Terminal,
  policy: ApprovalPolicy,
): (req: ApprovalRequest, signal?: AbortSignal) => Promise<boolean> {
  let queue = Promise.resolve();
  let allowAll = false;
  return (req, signal) => {
    const name = terminalLine(req.name);
    const where = req.server ? ` on server "${terminalLine(req.server)}"` : '';
    if (mode === 'all') return Promise.resolve(true);
    if (mode === 'none') {
      terminal.note(`denied: ${name}${where} (--approve none)`);
      return Promise.resolve(false);
    }
    const unasked = policy.preapproval(req);
    if (unasked !== undefined) {
      // Said for any but the read-only rule (the common case, as quiet as before).
      if (!/readOnlyHint/.test(unasked)) terminal.note(`${name}${where}: ${terminalLine(unasked)}`);
      return Promise.resolve(true);
    }
    const note = policy.askNote(req);
    if (mode === 'readonly') {
      terminal.note(
        `denied: ${name}${where} ${note ? `is read-only, but ${note.replace(/^Asks although its server calls it read-only: /, '')}` : 'is not read-only'}; run on a terminal to be asked, or pass --yes / --approve all`,
      );
      return Promise.resolve(false);
    }
    const answer = queue.then(async () => {
      if (allowAll) return true;
      if (signal?.aborted) return false;
      if (note) terminal.note(`${name}${where}: ${note}`);
      const line = (
        await terminal.question(
          `Run ${name}${where} with ${JSON.stringify(req.arguments)}? [y]es, [n]o, [a]ll for this run: `,
          signal,
        )
      )
        .trim()
        .toLowerCase();
      if (line === 'a' || line === 'all') allowAll = true;
      const ok = allowAll || line === 'y' || line === 'yes';
      if (!ok) terminal.note(`denied: ${name}${where}`);
      return ok;
    });
    queue = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  };
}

/**
 * The process's terminal: questions on stderr (stdout keeps only the steps), answers from stdin (read
 * only once asked). A tool's progress line stays away while a question waits (`progress`).
 */
export function processTerminal(progress?: ProgressLine): Terminal & { close(): void } {
  let rl: ReturnType<typeof createInterface> | undefined;
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  const open = () => {
    if (rl) return;
    rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
    rl.on('line', (line) => (waiting.length ? waiting.shift()!(line) : lines.push(line)));
    rl.on('close', () => waiting.splice(0).forEach((w) => w('')));
  };
  return {
    question(text, signal) {
      const ask = () => {
        open();
        stderr(text);
        if (lines.length) return Promise.resolve(lines.shift()!);
        return new Promise<string>((resolve) => {
          waiting.push(resolve);
          signal?.addEventListener('abort', () => resolve(''), { once: true });
        });
      };
      return progress ? progress.whileAsking(ask) : ask();
    },
    note: (line) => stderr(`${line}\n`),
    close: () => {
      rl?.close();
    },
  };
}
