import { BlockList, isIP } from 'node:net';

/**
 * Where an IP address is, for deciding what a remote party may make us reach: `loopback` is this
 * machine, `private` the local network (RFC 1918, link-local, CGNAT, unique-local IPv6), `public`
 * the rest. Ranked: a request may go to a place of the same rank as the party that asked, or lower.
 */
export type AddressClass = 'public' | 'private' | 'loopback';

export const ADDRESS_RANK: Record<AddressClass, number> = { public: 0, private: 1, loopback: 2 };

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
// 0.0.0.0 (and its /8) reaches this machine's listeners on Linux.
loopback.addSubnet('0.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addAddress('::', 'ipv6');

const privateNets = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateNets.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  privateNets.addSubnet(net, bits, 'ipv6');
}

/** The class of an IP address (v4, v6, IPv4-mapped v6); anything that is not an address counts as private. */
export function addressClass(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return addressClass(mapped);
  const family = isIP(ip);
  if (family === 0) return 'private';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return 'loopback';
  if (privateNets.check(ip, type)) return 'private';
  return 'public';
}

/** True for `localhost` names and loopback literals: plain http there never leaves the machine. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && addressClass(host) === 'loopback';
}
