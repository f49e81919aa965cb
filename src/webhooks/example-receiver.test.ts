import { sign } from './signer';
// The README's receiver example must accept what the service signs and refuse everything else.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { verifyWebhook } = require('../../examples/webhook-receiver.js') as {
  verifyWebhook(secret: string, raw: string, headers: Record<string, string>, now?: number): boolean;
};

describe('examples/webhook-receiver.js', () => {
  const secret = 'whsec_example';
  const body = JSON.stringify({ id: 'evt_1', event: 'licence.issued', created_at: '2026-06-15T12:00:00+00:00', data: { a: 'ä' } });
  const ts = 1_780_000_000;
  const headers = (s = sign(secret, body, ts), t = ts) => ({ 'x-svc-timestamp': String(t), 'x-svc-signature-timestamped': s.timestamped });

  it('accepts a delivery signed by the service', () => {
    expect(verifyWebhook(secret, body, headers(), ts + 300)).toBe(true);
  });

  it('refuses another secret, a changed body, and a timestamp over 300 s away', () => {
    expect(verifyWebhook('whsec_other', body, headers(), ts)).toBe(false);
    expect(verifyWebhook(secret, body.replace('ä', 'a'), headers(), ts)).toBe(false);
    expect(verifyWebhook(secret, body, headers(), ts + 301)).toBe(false);
    expect(verifyWebhook(secret, body, headers(), ts - 301)).toBe(false);
    expect(verifyWebhook(secret, body, { 'x-svc-timestamp': String(ts) }, ts)).toBe(false);
  });
});
