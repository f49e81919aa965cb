import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import type { HostResolver } from '../../src/webhooks/ssrf-guard';

/** A DNS of the test's own: each name to its addresses; any other name fails as ENOTFOUND does. */
export function fakeResolver(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname.toLowerCase()];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(resolve, { asked });
}

/** Public names the tests register endpoints at, and internal ones that must be refused. */
export const TEST_DNS = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'hooks.example': ['93.184.215.14'],
  'intranet.example.com': ['10.20.30.40'],
  'loopback.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.5'],
  'compat.example.com': ['::127.0.0.1'],
};
