import { promises as dns } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../domain/errors';

/** Every address a host name resolves to (dns.lookup with `all`); tests inject their own. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface TargetPolicy {
  allowInsecure: boolean;
  allowPrivate: boolean;
  /** How names are resolved, at registration and at connection; the system's resolver by default. */
  resolve?: HostResolver;
}

/**
 * The one message for a target that is refused or cannot be resolved, at registration and in the
 * delivery log alike: telling "no such name" from "a private name" apart would map internal DNS.
 */
export const TARGET_REFUSED = 'refused: the target host does not resolve to a public address';

/** The error the connection-time lookup fails with (code ETARGET, message TARGET_REFUSED). */
export function targetRefused(): Error & { code: string } {
  return Object.assign(new Error(TARGET_REFUSED), { code: 'ETARGET' });
}

// "::a.b.c.d" and "::ffff:a.b.c.d": the dotted tail in two hex groups, because ipaddr.js reads
// every dotted IPv6 form as IPv4-mapped (so "::127.0.0.1" would look like "::ffff:127.0.0.1").
const DOTTED_TAIL = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/;

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const tail = DOTTED_TAIL.exec(address);
  if (tail) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(tail[2])) return null;
    const [a, b, c, d] = ipaddr.IPv4.parse(tail[2]).octets;
    address = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  return ipaddr.isValid(address) ? ipaddr.parse(address) : null;
}

/**
 * Only globally routable unicast addresses may receive webhooks (docs/decisions.md#targets). An
 * IPv4-mapped address (`::ffff:a.b.c.d`, in any spelling) is judged by its IPv4 address; the
 * IPv4-compatible block `::/96` (`::a.b.c.d`, deprecated by RFC 4291, never routed) is refused
 * whole, as are the other blocks that embed IPv4 (NAT64, 6to4, Teredo: not `unicast` ranges).
 */
export function isPublicAddress(address: string): boolean {
  let ip = parseAddress(address);
  if (!ip) return false;
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  }
  return ip.range() === 'unicast';
}

/** Checks an endpoint URL when it is registered or changed. */
export function validateEndpointUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('invalid_url', 'the endpoint URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:')) {
    throw new DomainError('invalid_url', 'the endpoint URL must use https');
  }
  if (url.username || url.password) throw new DomainError('invalid_url', 'the endpoint URL must not carry credentials');
  if (raw.length > 2000) throw new DomainError('invalid_url', 'the endpoint URL is longer than 2,000 characters');
  if (url.port === '0') throw new DomainError('invalid_url', 'the endpoint URL must not name port 0');
  // A trailing dot names the same host ("localhost." is localhost).
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (ipaddr.isValid(host) && !isPublicAddress(host)))) {
    throw new DomainError('invalid_url', 'the endpoint URL points at a private, loopback or link-local address');
  }
  return url;
}

/**
 * validateEndpointUrl, then, unless private targets are allowed, the host name resolved: a name
 * that does not resolve, or resolves to any address that is not public, is refused with one
 * neutral message (the same for both, so registration is no oracle for internal names). The
 * connection-time lookup checks again (DNS can change after registration).
 */
export async function checkEndpointTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = validateEndpointUrl(raw, policy);
  if (policy.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (parseAddress(host)) return url; // an address literal, judged by validateEndpointUrl
  const addresses = await (policy.resolve ?? systemResolver)(host).catch((): LookupAddress[] => []);
  if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
    throw new DomainError('invalid_url', `the endpoint URL's host must resolve to public addresses only (${TARGET_REFUSED})`);
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for the HTTP client that refuses private targets at connection time, so a name
 * that resolves differently after registration (DNS rebinding) is still refused.
 */
export function guardedLookup(policy: TargetPolicy) {
  const resolve = policy.resolve ?? systemResolver;
  return (hostname: string, options: object, callback: LookupCallback): void => {
    resolve(hostname).then(
      (list) => {
        const allowed = policy.allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
        // Unresolvable and refused fail alike: the delivery log must not tell them apart.
        if (allowed.length === 0) return callback(targetRefused(), []);
        if ((options as { all?: boolean }).all) return callback(null, allowed);
        return callback(null, allowed[0].address, allowed[0].family);
      },
      () => callback(targetRefused(), []),
    );
  };
}
