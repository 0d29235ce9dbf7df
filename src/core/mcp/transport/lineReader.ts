/**
 * Splits a byte stream into lines without re-copying the pending bytes for every chunk (a 50 MB
 * message in 64 KB chunks would otherwise copy gigabytes). Lines longer than `maxLineBytes` are
 * dropped and reported with their first and last bytes, so the message's id can still be answered.
 */
const EDGE = 256;

export class LineReader {
  private chunks: Buffer[] = [];
  private pending = 0;
  private skipping = false;
  private head = '';

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number, edges: { head: string; tail: string }) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping || this.pending + piece.length > this.maxLineBytes) {
        const head = this.skipping
          ? this.head
          : Buffer.concat([...this.chunks, piece.subarray(0, EDGE)])
              .subarray(0, EDGE)
              .toString('utf8');
        this.onOversize(this.pending + piece.length, {
          head,
          tail: piece.subarray(Math.max(0, piece.length - EDGE)).toString('utf8'),
        });
        this.reset();
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.reset();
      this.onLine(line.toString('utf8').replace(/\r$/, ''));
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pending += rest.length;
      if (this.skipping) return;
      if (this.pending > this.maxLineBytes) {
        this.skipping = true;
        this.head = Buffer.concat([...this.chunks, rest.subarray(0, EDGE)])
          .subarray(0, EDGE)
          .toString('utf8');
        this.chunks = [];
      } else {
        this.chunks.push(rest);
      }
    }
  }

  private reset(): void {
    this.chunks = [];
    this.pending = 0;
    this.skipping = false;
    this.head = '';
  }
}
