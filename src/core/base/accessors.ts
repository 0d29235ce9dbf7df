import type { Transport } from '@modelcontextprotocol/client';

/** The get/set pair of an accessor property (an earlier wrapper's), if `key` is one. */
export function accessorOf(target: object, key: string): PropertyDescriptor | undefined {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return d.get && d.set ? d : undefined;
  }
  return undefined;
}

/**
 * Layers a transport's incoming messages: whatever handler is set on `onmessage` (the layers above, the SDK at the top)
 * is given to `wrap`, and what `wrap` returns is set on the layers below. The layer keeps the handler above if it must
 * hand a message up itself.
 */
export function layerIncoming(
  transport: Transport,
  wrap: (above: NonNullable<Transport['onmessage']>) => NonNullable<Transport['onmessage']>,
): void {
  const inner = accessorOf(transport, 'onmessage');
  // The lowest layer keeps the wrapped handler itself: the transport reads it from here.
  let wrapped: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (inner ? inner.get!.call(transport) : wrapped) as Transport['onmessage'],
    set: (handler: Transport['onmessage']) => {
      wrapped = handler ? wrap(handler) : undefined;
      inner?.set?.call(transport, wrapped);
    },
  });
}
