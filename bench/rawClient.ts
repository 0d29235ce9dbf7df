// The floor: a minimal hand-written JSON-RPC client over a stdio pipe, no SDK, no validation.
import { spawn, type ChildProcess } from 'node:child_process';

export class RawClient {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private pending = new Map<number, (result: unknown) => void>();
  private buffer = '';

  constructor(
    private readonly command: string,
    private readonly args: string[],
  ) {}

  async start(): Promise<void> {
    const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = child;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const msg = JSON.parse(line) as { id?: number; result?: unknown };
        if (msg.id !== undefined) this.pending.get(msg.id)?.(msg.result);
      }
    });
    await this.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (r) => {
        this.pending.delete(id);
        resolve(r);
      });
      this.child!.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  close(): Promise<void> {
    const child = this.child!;
    return new Promise((r) => {
      child.once('exit', () => r());
      child.stdin!.end();
      setTimeout(() => child.kill('SIGKILL'), 1_000).unref();
    });
  }
}
