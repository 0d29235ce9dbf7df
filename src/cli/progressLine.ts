import { percentDone } from '../core/mcp/tools/progressShare';
import type { ToolProgress } from '../core/toolRegistry/toolRegistry';
import { terminalLine } from './terminalText';

/**
 * One status line on a terminal, rewritten in place while a tool works (the editor shows the same
 * in its notification), and erased before anything else the CLI writes (terminalText's onBeforeWrite). The server's
 * words are shown as
 * text (terminalLine: its control characters as escapes); the only control sequences written are the
 * line's own carriage return and erase. Nothing is written where the stream is not a terminal: a
 * script reading stderr gets no progress chatter.
 */
export class ProgressLine {
  private shown = false;
  private asking = 0;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  static forTerminal(stream: NodeJS.WriteStream): ProgressLine | undefined {
    return stream.isTTY ? new ProgressLine(stream) : undefined;
  }

  update(tool: string, p: ToolProgress): void {
    if (this.asking) return;
    const line = terminalLine(`${tool}: ${describeProgress(p)}`);
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    this.stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
  }

  /**
   * Runs `question` with the line away: a question waits on the terminal for its answer (a tool call's
   * approval while another call of the turn works, a server's form), and an update would write over it.
   */
  async whileAsking<T>(question: () => Promise<T>): Promise<T> {
    this.clear();
    this.asking++;
    try {
      return await question();
    } finally {
      this.asking--;
    }
  }
}

/** "step 3 (30%)", "3 of 10", "3": the server's message with how far it is. */
export function describeProgress(p: ToolProgress): string {
  const percent = percentDone(p);
  const amount = percent === undefined ? String(p.progress) : `${Math.round(percent)}%`;
  const { message } = p;
  return message ? `${message} (${amount})` : amount;
}
