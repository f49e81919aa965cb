import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `${prefix}_` + 40 base62 characters from a CSPRNG (rejection sampling keeps it unbiased). */
export function generateToken(prefix: 'pk' | 'ck' | 'st' | 'sk'): string {
  let out = '';
  while (out.length < 40) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < 40) out += BASE62[byte % 62];
    }
  }
  return `${prefix}_${out}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What is shown of a key after creation: enough to recognise it, never enough to use it. */
export function displayPrefix(token: string): string {
  return token.slice(0, 8);
}

/**
 * The one rule for a key's expiry when it is issued (docs/decisions.md#keys): it must lie ahead of
 * `now` (the service's clock). A key is expired from its expiry on (key-authenticator.ts), so an
 * expiry at or before now would issue a key that never works.
 */
export function checkIssuedExpiry(expiresAt: Date | null | undefined, now: Date): Date | null {
  if (expiresAt == null) return null;
  if (Number.isNaN(expiresAt.getTime())) throw new DomainError('invalid_expires', 'the expiry must be an ISO 8601 date or time');
  if (expiresAt.getTime() <= now.getTime()) {
    throw new DomainError(
      'invalid_expires',
      `the expiry ${expiresAt.toISOString()} is not in the future (now ${now.toISOString()}): a key cannot be issued already expired`,
    );
  }
  return expiresAt;
}
