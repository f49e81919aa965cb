import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

/**
 * Which peers may tell us the client's address in X-Forwarded-For:
 * - `none`: nobody; the client is the socket peer and X-Forwarded-For is ignored;
 * - `hops`: the socket peer and the next `hops - 1` addresses to its left are proxies of ours;
 * - `ranges`: any address inside one of these subnets is a proxy of ours.
 */
export type TrustProxy =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'ranges'; readonly ranges: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[]; readonly source: string };

export const TRUST_NOBODY: TrustProxy = Object.freeze({ kind: 'none' });

/** Named ranges, as express (proxy-addr) names them. */
const NAMED: Record<string, readonly string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 16;

/**
 * Parses TRUST_PROXY: unset, empty, `0` (or `false`, `off`, `no`) trust nobody; a whole number
 * 1..16 is a hop count; anything else is a comma-separated list of addresses, CIDR subnets and
 * the names `loopback`, `linklocal`, `uniquelocal`. `true` is refused: trusting every hop lets
 * any client choose its own address. Throws an Error whose message says what is accepted.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (v === '' || /^(0|false|off|no)$/i.test(v)) return TRUST_NOBODY;
  if (/^(true|on|yes)$/i.test(v)) {
    throw new Error(
      '"true" would trust every hop, so any client could choose its address: give the number of proxies in front of the service (1, 2) or their addresses (10.0.0.0/8, loopback)',
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops === 0) return TRUST_NOBODY;
    if (hops > MAX_HOPS) throw new Error(`a hop count is 0..${MAX_HOPS}`);
    return Object.freeze({ kind: 'hops', hops });
  }
  const ranges: (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[] = [];
  for (const raw of v.split(',')) {
    const item = raw.trim();
    if (!item) throw new Error('an empty entry in the list of trusted proxies');
    for (const cidr of NAMED[item.toLowerCase()] ?? [item]) ranges.push(parseRange(cidr));
  }
  return Object.freeze({ kind: 'ranges', ranges: Object.freeze(ranges), source: v });
}

function parseRange(text: string): readonly [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const slash = text.indexOf('/');
  const address = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (!address) throw new Error(`"${text}" is not an IP address, a CIDR subnet or one of loopback, linklocal, uniquelocal`);
  const max = address.kind() === 'ipv4' ? 32 : 128;
  const bitsText = slash < 0 ? String(max) : text.slice(slash + 1);
  const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) throw new Error(`"${text}": the prefix length must be 0..${max}`);
  return Object.freeze([address, bits] as const);
}

/**
 * A strictly written IPv4 (four decimal parts) or IPv6 address; an IPv4-mapped IPv6 address is
 * taken as the IPv4 address. Anything else (ports, brackets, host names, short forms) is null.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
    if (text.includes(':') && ipaddr.IPv6.isValid(text)) {
      const v6 = ipaddr.IPv6.parse(text);
      return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
    }
  } catch {
    return null;
  }
  return null;
}

/** Whether the address at `hop` (0 = the socket peer, 1 = the right-most forwarded entry...) is a proxy of ours. */
function trusts(trust: TrustProxy, address: ipaddr.IPv4 | ipaddr.IPv6, hop: number): boolean {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'hops':
      return hop < trust.hops;
    case 'ranges':
      return trust.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}

/**
 * The client's address: start at the socket peer and walk X-Forwarded-For from right to left
 * (each proxy appends the address it received the request from) while the address at hand is a
 * trusted proxy; the first address that is not is the client. Entries to the left of it were
 * written by the client itself and are never read, so sending X-Forwarded-For buys no new
 * identity. When every address is trusted the left-most one is the client. A malformed entry
 * ends the walk: the trusted proxy that passed it on is taken as the client.
 *
 * Addresses come back in one canonical spelling (IPv4-mapped IPv6 as IPv4, IPv6 compressed and
 * lower-case), so two spellings of one address share a rate-limit bucket.
 */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | readonly string[] | undefined, trust: TrustProxy): string {
  const peer = socketAddress ? parseAddress(socketAddress) : null;
  if (!peer) return socketAddress || 'unknown';
  if (trust.kind === 'none' || !trusts(trust, peer, 0) || forwardedFor === undefined) return peer.toString();
  const header = typeof forwardedFor === 'string' ? forwardedFor : forwardedFor.join(',');
  const entries = header.split(',');
  let client = peer;
  for (let hop = 1, i = entries.length - 1; i >= 0; i--, hop++) {
    const entry = entries[i].trim();
    const address = parseAddress(entry);
    if (!address) break;
    client = address;
    if (!trusts(trust, address, hop)) break;
  }
  return client.toString();
}

/** `resolveClientIp` for a request. */
export function clientIp(req: IncomingMessage, trust: TrustProxy): string {
  return resolveClientIp(req.socket?.remoteAddress, req.headers['x-forwarded-for'], trust);
}

/**
 * The same trust as an express `trust proxy` function, so that req.ip (which nothing here should
 * read; use clientIp) agrees with clientIp except for the canonical spelling.
 */
export function expressTrustProxy(trust: TrustProxy): (address: string, hop: number) => boolean {
  return (address, hop) => {
    const parsed = parseAddress(address);
    return parsed !== null && trusts(trust, parsed, hop);
  };
}
