import { useEffect, useState } from 'react';

/**
 * Secrets the API shows once (a new stream key), handed from the screen that received them to the
 * screen that shows them, in memory only: a reload forgets them, as the API does.
 */
const kept = new Map<string, string>();
export const keepOnce = (id: string, secret: string) => void kept.set(id, secret);
export function takeOnce(id: string): string | null {
  const s = kept.get(id) ?? null;
  kept.delete(id);
  return s;
}

/**
 * The secret kept for `id`, as a screen's state. The state is read from what is kept without
 * taking it, and the secret is dropped only once the screen has mounted: React may render a
 * screen and throw the render away (StrictMode renders every state initializer twice), and a
 * secret taken by a render that was thrown away would be lost to the render that stays.
 */
export function useSecretOnce(id: string): [string | null, (secret: string | null) => void] {
  const [secret, setSecret] = useState<string | null>(() => kept.get(id) ?? null);
  useEffect(() => void kept.delete(id), [id]);
  return [secret, setSecret];
}
