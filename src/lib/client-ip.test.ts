import { expressTrustProxy, parseTrustProxy, resolveClientIp, TRUST_NOBODY } from './client-ip';

const ip = (socket: string | undefined, xff: string | string[] | undefined, trust: string | undefined) => resolveClientIp(socket, xff, parseTrustProxy(trust));

describe('parseTrustProxy', () => {
  it.each([undefined, '', ' ', '0', '00', 'false', 'off', 'no'])('%p trusts nobody', (v) => {
    expect(parseTrustProxy(v)).toBe(TRUST_NOBODY);
  });

  it('a whole number is a hop count', () => {
    expect(parseTrustProxy('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseTrustProxy(' 2 ')).toEqual({ kind: 'hops', hops: 2 });
  });

  it.each(['true', 'TRUE', 'on', 'yes'])('%p is refused: it would trust every hop', (v) => {
    expect(() => parseTrustProxy(v)).toThrow(/number of proxies/);
  });

  it.each(['17', '-1', '1.5', 'nginx', '10.0.0.0/33', '10.0.0.0/x', '::1/129', '10.0.0.0/8,,loopback', '10.0.0', '10.0.0.1:80', '[::1]'])(
    '%p is refused with a message',
    (v) => {
      expect(() => parseTrustProxy(v)).toThrow(/./);
    },
  );

  it('accepts addresses, subnets and the names express knows', () => {
    const t = parseTrustProxy('10.0.0.0/8, 172.16.0.0/12,loopback,UniqueLocal,2001:db8::/32,192.0.2.1');
    expect(t.kind).toBe('ranges');
  });
});

describe('resolveClientIp', () => {
  it('trusting nobody: the socket peer, whatever X-Forwarded-For says', () => {
    expect(ip('192.0.2.10', '203.0.113.7', undefined)).toBe('192.0.2.10');
    expect(ip('192.0.2.10', '203.0.113.7', '0')).toBe('192.0.2.10');
  });

  it('one hop: the right-most entry, the one the proxy appended', () => {
    expect(ip('10.0.0.2', '203.0.113.7', '1')).toBe('203.0.113.7');
    expect(ip('10.0.0.2', '1.1.1.1, 2.2.2.2, 203.0.113.7', '1')).toBe('203.0.113.7');
  });

  it('spoofed left entries never change the answer', () => {
    for (const spoof of ['', '9.9.9.9, ', '1.2.3.4, 5.6.7.8, ', 'unknown, ', '::1, ', '127.0.0.1, ']) {
      expect(ip('10.0.0.2', `${spoof}203.0.113.7`, '1')).toBe('203.0.113.7');
      expect(ip('10.0.0.2', `${spoof}203.0.113.7, 10.0.0.3`, '2')).toBe('203.0.113.7');
      expect(ip('10.0.0.2', `${spoof}203.0.113.7, 10.0.0.3`, '10.0.0.0/8')).toBe('203.0.113.7');
    }
  });

  it('two hops: the second entry from the right', () => {
    expect(ip('10.0.0.2', '198.51.100.1, 203.0.113.7, 10.0.0.3', '2')).toBe('203.0.113.7');
  });

  it('hop count larger than the chain: the left-most address', () => {
    expect(ip('10.0.0.2', '203.0.113.7', '3')).toBe('203.0.113.7');
    expect(ip('10.0.0.2', undefined, '3')).toBe('10.0.0.2');
  });

  it('a list: walks leftwards through trusted addresses only', () => {
    expect(ip('10.0.0.2', '198.51.100.1, 203.0.113.7, 172.16.5.4', '10.0.0.0/8,172.16.0.0/12')).toBe('203.0.113.7');
    // a peer that is not a trusted proxy is the client itself, X-Forwarded-For unread
    expect(ip('192.0.2.99', '203.0.113.7', '10.0.0.0/8')).toBe('192.0.2.99');
    expect(ip('127.0.0.1', '203.0.113.7', 'loopback')).toBe('203.0.113.7');
    // every address trusted: the left-most one
    expect(ip('10.0.0.2', '10.1.1.1, 10.2.2.2', 'uniquelocal')).toBe('10.1.1.1');
  });

  it('IPv6: peers, entries, subnets and IPv4-mapped addresses, in one canonical spelling', () => {
    expect(ip('::ffff:127.0.0.1', '203.0.113.7', 'loopback')).toBe('203.0.113.7');
    expect(ip('::ffff:127.0.0.1', undefined, undefined)).toBe('127.0.0.1');
    expect(ip('::1', '2001:DB8:0:0::7', 'loopback')).toBe('2001:db8::7');
    expect(ip('fd00::2', '2001:db8::7, fd00::3', 'fc00::/7')).toBe('2001:db8::7');
    expect(ip('2001:db8::1', '2001:db8::ffff', '2001:db8::/64')).toBe('2001:db8::ffff');
    expect(ip('2001:db8:1::1', '203.0.113.7', '2001:db8::/64')).toBe('2001:db8:1::1');
    // an IPv4 range does not match IPv6 addresses and the other way round
    expect(ip('::1', '203.0.113.7', '127.0.0.0/8')).toBe('::1');
  });

  it('malformed entries end the walk at the trusted proxy that passed them on', () => {
    for (const bad of ['', 'unknown', '203.0.113.7:4711', '[2001:db8::1]', '1.2.3', '999.1.1.1', 'x'.repeat(5000), '1.2.3.4\u0000']) {
      expect(ip('10.0.0.2', bad, '1')).toBe('10.0.0.2');
      expect(ip('10.0.0.2', `203.0.113.7, ${bad}`, '10.0.0.0/8')).toBe('10.0.0.2');
    }
    expect(ip('10.0.0.2', '203.0.113.7, garbage, 10.0.0.3', '2')).toBe('10.0.0.3');
  });

  it('a header sent several times reads as one list', () => {
    expect(ip('10.0.0.2', ['198.51.100.1', '203.0.113.7'], '1')).toBe('203.0.113.7');
  });

  it('no socket address: unknown', () => {
    expect(ip(undefined, '203.0.113.7', '1')).toBe('unknown');
  });
});

describe('expressTrustProxy', () => {
  it('trusts what resolveClientIp trusts', () => {
    const hops = expressTrustProxy(parseTrustProxy('1'));
    expect([hops('10.0.0.2', 0), hops('203.0.113.7', 1)]).toEqual([true, false]);
    const list = expressTrustProxy(parseTrustProxy('10.0.0.0/8'));
    expect([list('10.9.9.9', 3), list('203.0.113.7', 0), list('nonsense', 0)]).toEqual([true, false, false]);
    expect(expressTrustProxy(TRUST_NOBODY)('127.0.0.1', 0)).toBe(false);
  });
});
