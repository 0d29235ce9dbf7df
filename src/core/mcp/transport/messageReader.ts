import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { deliver } from './inbox';
import { LineReader } from './lineReader';

/**
 * A server's stdout as messages: one JSON-RPC message a line, each parsed and handled through the
 * host's inbox (parsing is part of the work the inbox spreads over iterations). A line that is not a
 * message goes to `onGarbage`; so does a message over `maxBytes`, which is dropped, and if it is a
 * response whose id can be read from its first or last bytes, its call fails at once with a clear
 * message instead of waiting for its timeout.
 */
export function messageReader(
  maxBytes: number,
  onMessage: (message: JSONRPCMessage) => void,
  onGarbage?: (line: string) => void,
): LineReader {
  const line = (text: string) => {
    if (!text.trim()) return;
    deliver(() => {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(text);
      } catch {
        onGarbage?.(text);
        return;
      }
      onMessage(message);
    });
  };
  const oversize = (bytes: number, { head, tail }: { head: string; tail: string }) => {
    const message = `the server sent a message of ${bytes} bytes, over the ${maxBytes}-byte limit; it was dropped`;
    onGarbage?.(`[${message}]`);
    const idText =
      /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")/.exec(head)?.[1] ??
      /"id"\s*:\s*(\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail)?.[1];
    if (idText === undefined || !/"result"|"error"/.test(head + tail)) return;
    const id = JSON.parse(idText) as string | number;
    deliver(() => onMessage({ jsonrpc: '2.0', id, error: { code: -32603, message } } as JSONRPCMessage));
  };
  return new LineReader(maxBytes, line, oversize);
}
