import { createHash } from 'node:crypto';

/** The names model APIs accept for a tool, and the registry's names mapped to them and back. */
export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const WIRE_MAX = 64;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** The wire form of one name, before uniqueness against other names is considered. */
export function toWireName(name: string): string {
  if (WIRE_NAME_PATTERN.test(name)) return name;
  let wire = name.replace(/\./g, '__').replace(/[^a-zA-Z0-9_-]/g, '_');
  if (wire.length === 0) wire = 'tool';
  if (wire.length > WIRE_MAX) wire = `${wire.slice(0, WIRE_MAX - 9)}_${shortHash(name)}`;
  return wire;
}

/**
 * A deterministic two-way mapping between registry names and names model APIs accept
 * (`^[a-zA-Z0-9_-]{1,64}$`). When two names sanitize to the same wire name, the later one (in the
 * order given) gets a short hash of its registry name.
 */
export class WireNames {
  private readonly toWire = new Map<string, string>();
  private readonly fromWire = new Map<string, string>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      let wire = toWireName(name);
      if (this.fromWire.has(wire)) wire = `${wire.slice(0, WIRE_MAX - 9)}_${shortHash(name)}`;
      for (let i = 2; this.fromWire.has(wire); i++)
        wire = `${wire.slice(0, WIRE_MAX - 12)}_${shortHash(`${name}#${i}`)}`;
      this.toWire.set(name, wire);
      this.fromWire.set(wire, name);
    }
  }

  wire(name: string): string | undefined {
    return this.toWire.get(name);
  }

  /** The registry name for a name a model sent; registry names are accepted too. */
  name(wireOrName: string): string | undefined {
    return this.fromWire.get(wireOrName) ?? (this.toWire.has(wireOrName) ? wireOrName : undefined);
  }
}
