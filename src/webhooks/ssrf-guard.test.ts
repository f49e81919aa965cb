import { DomainError } from '../domain/errors';
import { isPublicAddress, validateEndpointUrl, type TargetPolicy } from './ssrf-guard';

/** docs/decisions.md#targets: https only, and no private, loopback or link-local targets, unless allowed. */

describe('isPublicAddress', () => {
  it.each([
    '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.255',
    '127.0.0.1', '127.1.2.3', '169.254.169.254', '169.254.0.1', '0.0.0.0', '100.64.0.1', '255.255.255.255', '224.0.0.1',
    '::1', '::', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'fe80::1ff:fe23:4567:890a',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:192.168.1.1', 'ff02::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '93.184.216.34', '2001:4860:4860::8888', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s', (address) => {
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

  it.each([
    'https://hooks.example.com/svc', 'https://8.8.8.8/hook', 'https://[2001:4860:4860::8888]/hook', 'https://partner.example:8443/a?b=c',
  ])('accepts the public https URL %s', (url) => {
    expect(code(url)).toBeNull();
    expect(validateEndpointUrl(url, strict)).toBeInstanceOf(URL);
  });

  it.each([
    'https://10.1.2.3/h', 'https://172.16.5.4/h', 'https://192.168.1.10/h', 'https://127.0.0.1/h', 'https://127.0.0.53:8443/h',
    'https://169.254.169.254/latest/meta-data', 'https://0.0.0.0/h', 'https://[::1]/h', 'https://[fc00::1]/h', 'https://[fd00:ab::2]/h',
    'https://[fe80::1]/h', 'https://[::ffff:127.0.0.1]/h', 'https://[::ffff:a00:1]/h',
    // Shorthand and numeric forms that the URL parser turns into loopback.
    'https://127.1/h', 'https://2130706433/h', 'https://0x7f000001/h', 'https://0/h',
  ])('refuses the private, loopback or link-local target %s with invalid_url', (url) => {
    expect(code(url)).toBe('invalid_url');
  });

  it.each(['https://localhost/h', 'https://LOCALHOST:8443/h', 'https://api.localhost/h', 'https://localhost./h', 'https://a.b.localhost./h'])(
    'refuses the localhost name %s with invalid_url', (url) => {
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
    'refuses credentials in the URL (%s)', (url) => {
      expect(code(url)).toBe('invalid_url');
    },
  );

  it.each([
    'ftp://hooks.example.com/h', 'file:///etc/passwd', 'ws://hooks.example.com/h', 'wss://hooks.example.com/h', 'gopher://hooks.example.com/',
    'javascript:alert(1)', 'data:text/plain,hi', 'hooks.example.com/h', '/relative/path', '', 'https://', 'https://exa mple.com/',
  ])('refuses %j, which is not an absolute http(s) URL', (url) => {
    expect(code(url, { allowInsecure: true, allowPrivate: true })).toBe('invalid_url');
  });

  it('refuses a URL longer than 2,000 characters', () => {
    expect(code(`https://hooks.example.com/${'a'.repeat(2000)}`)).toBe('invalid_url');
  });
});
