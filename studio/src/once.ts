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
