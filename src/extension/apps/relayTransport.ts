import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * A transport whose other end is a relay (an app's frame, through the chat page): `post` sends, `receive` is what came
 * back.
 */
export class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly post: (message: JSONRPCMessage) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.post(message);
  }

  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
