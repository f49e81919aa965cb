import { signStandard } from './signer';
import { newWebhookSecret } from './webhook-endpoint.service';
// examples/standard-webhooks-receiver.js must accept what the service signs and refuse everything else.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { verifyDelivery } = require('../../examples/standard-webhooks-receiver.js') as {
  verifyDelivery(secret: string, raw: string, headers: Record<string, string>): { id: string };
};

describe('examples/standard-webhooks-receiver.js', () => {
  const body = JSON.stringify({ id: 'evt_01JD0000000000000000000000', event: 'ping', created_at: '2026-06-15T12:00:00+00:00', data: { a: 'ä' } });
  const now = Math.floor(Date.now() / 1000);
  const headers = (secrets: string[], ts = now, raw = body) => ({
    'webhook-id': 'evt_01JD0000000000000000000000',
    'webhook-timestamp': String(ts),
    'webhook-signature': signStandard(secrets, 'evt_01JD0000000000000000000000', ts, raw),
  });

  it('accepts a delivery signed by the service, with a new secret as printed and with an older base64url one', () => {
    const secret = newWebhookSecret();
    expect(verifyDelivery(secret, body, headers([secret])).id).toBe('evt_01JD0000000000000000000000');
    const legacy = `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`;
    expect(verifyDelivery(legacy, body, headers([legacy])).id).toBe('evt_01JD0000000000000000000000');
    expect(verifyDelivery(secret, body, headers([legacy, secret])).id).toBe('evt_01JD0000000000000000000000');
  });

  it('refuses another secret, a changed body, and a timestamp over 300 s away', () => {
    const secret = newWebhookSecret();
    expect(() => verifyDelivery(newWebhookSecret(), body, headers([secret]))).toThrow();
    expect(() => verifyDelivery(secret, body.replace('ä', 'a'), headers([secret]))).toThrow();
    expect(() => verifyDelivery(secret, body, headers([secret], now - 301))).toThrow();
  });
});
