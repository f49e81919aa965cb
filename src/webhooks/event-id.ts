import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `evt_` + a ULID: 48 bits of milliseconds then 80 random bits, in Crockford base32, so ids sort
 * by creation time (docs/decisions.md#event-ids). Within one millisecond the random part is incremented, keeping order.
 */
let lastTime = -1;
let lastRandom: number[] = [];

export function newEventId(now: number = Date.now()): string {
  let random: number[];
  if (now === lastTime) {
    random = [...lastRandom];
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i] < 31) {
        random[i]++;
        break;
      }
      random[i] = 0;
    }
  } else {
    const bytes = randomBytes(16);
    random = Array.from({ length: 16 }, (_, i) => bytes[i] % 32);
  }
  lastTime = now;
  lastRandom = random;
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `evt_${time}${random.map((n) => CROCKFORD[n]).join('')}`;
}
