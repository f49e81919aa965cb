import { createHmac, timingSafeEqual } from 'node:crypto';

export const HEADER = {
  event: 'X-SVC-Event',
  delivery: 'X-SVC-Delivery',
  timestamp: 'X-SVC-Timestamp',
  attempt: 'X-SVC-Attempt',
  signature: 'X-SVC-Signature',
  signatureTimestamped: 'X-SVC-Signature-Timestamped',
  replayOf: 'X-SVC-Replay-Of',
} as const;

/** The Standard Webhooks headers (https://www.standardwebhooks.com), sent beside the X-SVC ones. */
export const STANDARD_HEADER = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmac(secret: string, data: string): string {
  return `sha256=${createHmac('sha256', secret).update(data, 'utf8').digest('hex')}`;
}

/** Both signatures partners verify (docs/webhooks.md): over the raw body, and over `{timestamp}.{body}`. */
export function sign(secret: string, body: string, timestamp: number): { signature: string; timestamped: string } {
  return { signature: hmac(secret, body), timestamped: hmac(secret, `${timestamp}.${body}`) };
}

/**
 * The Standard Webhooks key of a secret (docs/webhooks.md#standard-webhooks): the bytes its text
 * after `whsec_` encodes. Our secrets are base64url; Node's decoder reads both alphabets, and
 * secrets issued since the Standard Webhooks headers exist contain neither `-` nor `_`, so the
 * libraries (which decode standard base64) take them verbatim.
 */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64url');
}

/**
 * `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` for each secret
 * that signs (two while a rotation's switch is pending), space-separated.
 */
export function signStandard(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => `v1,${createHmac('sha256', standardKey(s)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`).join(' ');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * What a receiver does (and what our tests do): constant-time comparison of the timestamped
 * signature, and a timestamp no more than 300 s from now.
 */
export function verifySignature(
  secret: string,
  rawBody: string,
  headers: { timestamp: string | undefined; signature: string | undefined; timestamped: string | undefined },
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = sign(secret, rawBody, ts);
  return safeEqual(expected.timestamped, headers.timestamped ?? '') && safeEqual(expected.signature, headers.signature ?? '');
}
