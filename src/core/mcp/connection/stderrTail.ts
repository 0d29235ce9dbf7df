/** Keeps the last lines a server wrote to stderr, bounded in lines and characters. */
export class StderrTail {
  private lines: string[] = [];
  private chars = 0;
  private partial = '';

  constructor(
    private readonly maxLines = 40,
    private readonly maxChars = 4_000,
  ) {}

  /** Feeds raw text; calls `onLine` for each complete line. */
  write(text: string, onLine?: (line: string) => void): void {
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxChars) {
      parts.push(this.partial);
      this.partial = '';
    }
    for (const line of parts) {
      this.add(line);
      onLine?.(line);
    }
  }

  add(line: string): void {
    const cut = line.length > this.maxChars ? `${line.slice(0, this.maxChars)}…` : line;
    this.lines.push(cut);
    this.chars += cut.length;
    while (this.lines.length > this.maxLines || (this.chars > this.maxChars && this.lines.length > 1)) {
      this.chars -= this.lines.shift()!.length;
    }
  }

  /** Starts over (a new process of the same server: its tail is what explains it). */
  clear(): void {
    this.lines = [];
    this.chars = 0;
    this.partial = '';
  }

  /** The tail as text, the unfinished last line included. */
  text(): string {
    return [...this.lines, ...(this.partial ? [this.partial] : [])].join('\n').trim();
  }
}
