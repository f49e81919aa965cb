import { createHmac } from 'node:crypto';
import { HEADER, sign, SIGNATURE_TOLERANCE_SECONDS, verifySignature } from './signer';

/** The two signatures partners verify (docs/webhooks.md), and the receiver rule (300 s tolerance). */

const hex = (secret: string, data: string) => createHmac('sha256', secret).update(Buffer.from(data, 'utf8')).digest('hex');

describe('sign', () => {
  it('matches the RFC 4231 HMAC-SHA256 test vector (key "Jefe")', () => {
    // RFC 4231, test case 2: an answer computed by no code of ours.
    expect(sign('Jefe', 'what do ya want for nothing?', 0).signature).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('signs the raw body, and "{timestamp}.{body}", with the secret as node:crypto computes it', () => {
    const secret = 'whsec_c2VjcmV0LWZvci10ZXN0cy1vbmx5LTAxMjM0NTY3ODk';
    const body = '{"id":"evt_01J0000000000000000000000","event":"licence.issued","data":{"name":"Béla Dupont"}}';
    const s = sign(secret, body, 1781524800);
    expect(s.signature).toBe(`sha256=${hex(secret, body)}`);
    expect(s.timestamped).toBe(`sha256=${hex(secret, `1781524800.${body}`)}`);
    expect(s.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(s.timestamped).not.toBe(s.signature);
  });

  it('names the headers as the Events table does', () => {
    expect(HEADER).toEqual({
      event: 'X-SVC-Event',
      delivery: 'X-SVC-Delivery',
      timestamp: 'X-SVC-Timestamp',
      attempt: 'X-SVC-Attempt',
      signature: 'X-SVC-Signature',
      signatureTimestamped: 'X-SVC-Signature-Timestamped',
      replayOf: 'X-SVC-Replay-Of',
    });
  });
});

describe('verifySignature', () => {
  const secret = 'whsec_known';
  const body = '{"id":"evt_x","event":"result.verified","created_at":"2026-06-15T12:00:00.000+00:00","data":{}}';
  const ts = 1_781_524_800;
  const headersFor = (b: string, t: number, key = secret) => {
    const s = sign(key, b, t);
    return { timestamp: String(t), signature: s.signature, timestamped: s.timestamped };
  };

  it('accepts a fresh, untouched delivery', () => {
    expect(verifySignature(secret, body, headersFor(body, ts), ts)).toBe(true);
  });

  it('accepts a timestamp exactly 300 s away and refuses one 301 s away, on both sides', () => {
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    const h = headersFor(body, ts);
    expect(verifySignature(secret, body, h, ts + 300)).toBe(true);
    expect(verifySignature(secret, body, h, ts - 300)).toBe(true);
    expect(verifySignature(secret, body, h, ts + 301)).toBe(false);
    expect(verifySignature(secret, body, h, ts - 301)).toBe(false);
  });

  it('refuses a tampered body, even by one character', () => {
    const h = headersFor(body, ts);
    expect(verifySignature(secret, body.replace('result.verified', 'result.verifieD'), h, ts)).toBe(false);
    expect(verifySignature(secret, `${body} `, h, ts)).toBe(false);
  });

  it('refuses a timestamp changed after signing (the timestamped signature binds it)', () => {
    const h = { ...headersFor(body, ts), timestamp: String(ts + 1) };
    expect(verifySignature(secret, body, h, ts)).toBe(false);
  });

  it('refuses another secret, a missing or malformed header, and a non-integer timestamp', () => {
    expect(verifySignature('whsec_other', body, headersFor(body, ts), ts)).toBe(false);
    const h = headersFor(body, ts);
    expect(verifySignature(secret, body, { ...h, signature: undefined }, ts)).toBe(false);
    expect(verifySignature(secret, body, { ...h, timestamped: undefined }, ts)).toBe(false);
    expect(verifySignature(secret, body, { ...h, timestamp: undefined }, ts)).toBe(false);
    expect(verifySignature(secret, body, { ...h, signature: h.signature.replace('sha256=', '') }, ts)).toBe(false);
    expect(verifySignature(secret, body, { ...h, timestamped: h.timestamped.toUpperCase() }, ts)).toBe(false);
    const frac = sign(secret, body, ts);
    expect(verifySignature(secret, body, { timestamp: `${ts}.5`, signature: frac.signature, timestamped: frac.timestamped }, ts)).toBe(false);
  });

  it('refuses a delivery whose timestamped signature was computed with another timestamp', () => {
    const other = sign(secret, body, ts - 1000);
    expect(verifySignature(secret, body, { timestamp: String(ts), signature: other.signature, timestamped: other.timestamped }, ts)).toBe(false);
  });
});
