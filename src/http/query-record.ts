/** A raw query string as express would parse it for these doors: a repeated parameter is an array. */
export function queryRecord(qs: string): Record<string, unknown> {
  // no prototype: parameters named `__proto__` or `constructor` are plain entries
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
