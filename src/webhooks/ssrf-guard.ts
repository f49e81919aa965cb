import { lookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { DomainError } from '../domain/errors';

export interface TargetPolicy {
  allowInsecure: boolean;
  allowPrivate: boolean;
}

/** Only globally routable unicast addresses may receive webhooks (docs/decisions.md#targets). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
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
  // A trailing dot names the same host ("localhost." is localhost).
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (ipaddr.isValid(host) && !isPublicAddress(host)))) {
    throw new DomainError('invalid_url', 'the endpoint URL points at a private, loopback or link-local address');
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for the HTTP client that refuses private targets at connection time, so a name
 * that resolves differently after registration (DNS rebinding) is still refused.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const allowed = policy.allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`refused: ${hostname} resolves only to private, loopback or link-local addresses`), { code: 'ESSRF' });
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
