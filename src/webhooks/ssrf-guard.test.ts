import { DomainError } from '../domain/errors';
import type { LookupAddress } from 'node:dns';
import { checkEndpointTarget, guardedLookup, isPublicAddress, TARGET_REFUSED, validateEndpointUrl, type HostResolver, type TargetPolicy } from './ssrf-guard';

/** docs/decisions.md#targets: https only, and no private, loopback or link-local targets, unless allowed. */

describe('isPublicAddress', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.168.255.255',
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254',
    '169.254.0.1',
    '0.0.0.0',
    '100.64.0.1',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1ff:fe23:4567:890a',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:192.168.1.1',
    'ff02::1',
    // IPv4-mapped in hex and in full, and IPv4-compatible (::a.b.c.d, deprecated, never routed) in every spelling.
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '0:0:0:0:0:FFFF:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:c0a8:101',
    '::127.0.0.1',
    '::7f00:1',
    '0:0:0:0:0:0:127.0.0.1',
    '::10.0.0.1',
    '::a00:1',
    '::8.8.8.8',
    '::808:808',
    '::0.0.0.1',
    // Other blocks that embed an IPv4 address: NAT64, 6to4, Teredo, IPv4-translated.
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::ffff:0:7f00:1',
    '::1.2.3',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '93.184.216.34', '2001:4860:4860::8888', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each(['localhost', 'example.com', '', '999.1.1.1', 'not an ip'])('refuses %j, which is not an address', (value) => {
    expect(isPublicAddress(value)).toBe(false);
  });
});

describe('validateEndpointUrl', () => {
  const strict: TargetPolicy = { allowInsecure: false, allowPrivate: false };
  const code = (url: string, policy: TargetPolicy = strict): string | null => {
    try {
      validateEndpointUrl(url, policy);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      return (err as DomainError).code;
    }
  };

  it.each(['https://hooks.example.com/svc', 'https://8.8.8.8/hook', 'https://[2001:4860:4860::8888]/hook', 'https://partner.example:8443/a?b=c'])(
    'accepts the public https URL %s',
    (url) => {
      expect(code(url)).toBeNull();
      expect(validateEndpointUrl(url, strict)).toBeInstanceOf(URL);
    },
  );

  it.each([
    'https://10.1.2.3/h',
    'https://172.16.5.4/h',
    'https://192.168.1.10/h',
    'https://127.0.0.1/h',
    'https://127.0.0.53:8443/h',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/h',
    'https://[::1]/h',
    'https://[fc00::1]/h',
    'https://[fd00:ab::2]/h',
    'https://[fe80::1]/h',
    'https://[::ffff:127.0.0.1]/h',
    'https://[::ffff:a00:1]/h',
    'https://[::127.0.0.1]/h',
    'https://[::7f00:1]/h',
    'https://[::ffff:7f00:1]/h',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/h',
    'https://[::10.0.0.1]/h',
    // Shorthand and numeric forms that the URL parser turns into loopback.
    'https://127.1/h',
    'https://2130706433/h',
    'https://0x7f000001/h',
    'https://0/h',
  ])('refuses the private, loopback or link-local target %s with invalid_url', (url) => {
    expect(code(url)).toBe('invalid_url');
  });

  it.each(['https://localhost/h', 'https://LOCALHOST:8443/h', 'https://api.localhost/h', 'https://localhost./h', 'https://a.b.localhost./h'])(
    'refuses the localhost name %s with invalid_url',
    (url) => {
      expect(code(url)).toBe('invalid_url');
    },
  );

  it('allows private and loopback targets with WEBHOOKS_ALLOW_PRIVATE', () => {
    const allowPrivate = { allowInsecure: false, allowPrivate: true };
    for (const url of ['https://127.0.0.1/h', 'https://[::1]/h', 'https://10.0.0.1/h', 'https://localhost/h']) expect(code(url, allowPrivate)).toBeNull();
    // ...but still not http.
    expect(code('http://127.0.0.1/h', allowPrivate)).toBe('invalid_url');
  });

  it('refuses http unless WEBHOOKS_ALLOW_INSECURE', () => {
    expect(code('http://hooks.example.com/svc')).toBe('invalid_url');
    expect(code('http://hooks.example.com/svc', { allowInsecure: true, allowPrivate: false })).toBeNull();
    // Allowing http does not allow private targets.
    expect(code('http://127.0.0.1:8080/h', { allowInsecure: true, allowPrivate: false })).toBe('invalid_url');
    expect(code('http://127.0.0.1:8080/h', { allowInsecure: true, allowPrivate: true })).toBeNull();
  });

  it.each(['https://user:pass@hooks.example.com/h', 'https://user@hooks.example.com/h', 'https://:pass@hooks.example.com/h'])(
    'refuses credentials in the URL (%s)',
    (url) => {
      expect(code(url)).toBe('invalid_url');
    },
  );

  it.each([
    'ftp://hooks.example.com/h',
    'file:///etc/passwd',
    'ws://hooks.example.com/h',
    'wss://hooks.example.com/h',
    'gopher://hooks.example.com/',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'hooks.example.com/h',
    '/relative/path',
    '',
    'https://',
    'https://exa mple.com/',
  ])('refuses %j, which is not an absolute http(s) URL', (url) => {
    expect(code(url, { allowInsecure: true, allowPrivate: true })).toBe('invalid_url');
  });

  it('refuses a URL longer than 2,000 characters', () => {
    expect(code(`https://hooks.example.com/${'a'.repeat(2000)}`)).toBe('invalid_url');
  });
});

describe('port 0', () => {
  it.each(['https://hooks.example.com:0/h', 'https://8.8.8.8:0/h', 'https://[2001:4860:4860::8888]:0/h', 'https://hooks.example.com:00/h'])(
    'refuses %s with invalid_url',
    (url) => {
      expect(() => validateEndpointUrl(url, { allowInsecure: false, allowPrivate: true })).toThrow('the endpoint URL must not name port 0');
    },
  );
});

/** The test's own DNS: any name not in the table fails as ENOTFOUND does. */
function resolverOf(table: Record<string, string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    asked.push(host);
    if (!table[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return table[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const DNS = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'loopback.example.com': ['127.0.0.1'],
  'intranet.example.com': ['10.20.30.40'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-loopback.example.com': ['::1'],
  'compat.example.com': ['::127.0.0.1'],
  'mapped.example.com': ['::ffff:7f00:1'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.5'],
};

describe('checkEndpointTarget (registration)', () => {
  const outcome = (url: string, policy: TargetPolicy) =>
    checkEndpointTarget(url, policy).then(
      (u) => u.toString(),
      (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
    );
  const NEUTRAL = `invalid_url: the endpoint URL's host must resolve to public addresses only (${TARGET_REFUSED})`;

  it('accepts a name whose every address is public', async () => {
    expect(await outcome('https://hooks.example.com/svc', { allowInsecure: false, allowPrivate: false, resolve: resolverOf(DNS) })).toBe(
      'https://hooks.example.com/svc',
    );
  });

  it.each(['loopback', 'intranet', 'metadata', 'v6-loopback', 'compat', 'mapped', 'mixed', 'no-such-name'])(
    'refuses %s.example.com with the one neutral message (unresolvable reads the same as private)',
    async (name) => {
      expect(await outcome(`https://${name}.example.com/svc`, { allowInsecure: false, allowPrivate: false, resolve: resolverOf(DNS) })).toBe(NEUTRAL);
    },
  );

  it('does not resolve when private targets are allowed, nor for address literals', async () => {
    const resolve = resolverOf(DNS);
    expect(await outcome('https://loopback.example.com/svc', { allowInsecure: false, allowPrivate: true, resolve })).toBe('https://loopback.example.com/svc');
    expect(await outcome('https://8.8.8.8/svc', { allowInsecure: false, allowPrivate: false, resolve })).toBe('https://8.8.8.8/svc');
    expect(await outcome('https://[::127.0.0.1]/svc', { allowInsecure: false, allowPrivate: false, resolve })).toBe(
      'invalid_url: the endpoint URL points at a private, loopback or link-local address',
    );
    expect(resolve.asked).toEqual([]);
  });
});

describe('guardedLookup (connection)', () => {
  const lookup = (policy: TargetPolicy, host: string, all = false) =>
    new Promise<string>((done) => {
      guardedLookup(policy)(host, { all }, (err, address) => done(err ? `${(err as { code?: string }).code}: ${err.message}` : JSON.stringify(address)));
    });
  const strict: TargetPolicy = { allowInsecure: false, allowPrivate: false, resolve: resolverOf(DNS) };

  it('connects only to the public addresses of a name', async () => {
    expect(await lookup(strict, 'hooks.example.com')).toBe('"93.184.215.14"');
    expect(await lookup(strict, 'mixed.example.com', true)).toBe('[{"address":"93.184.215.14","family":4}]');
  });

  it('fails a refused name and an unresolvable one with the same neutral error', async () => {
    const refusal = `ETARGET: ${TARGET_REFUSED}`;
    for (const host of ['loopback.example.com', 'compat.example.com', 'mapped.example.com', 'no-such-name.example.com'])
      expect(await lookup(strict, host)).toBe(refusal);
    expect(await lookup({ ...strict, allowPrivate: true }, 'no-such-name.example.com')).toBe(refusal);
    expect(await lookup({ ...strict, allowPrivate: true }, 'loopback.example.com')).toBe('"127.0.0.1"');
  });
});
