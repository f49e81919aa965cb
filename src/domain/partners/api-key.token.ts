import { createHash, randomBytes } from 'node:crypto';

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
