/**
 * A value now, or a promise of it later. The request pipeline (src/http/pipeline.ts) runs its
 * steps synchronously for as long as every one of them answers at once (a cached key, a kept
 * answer, an in-process rate limiter), and awaits only from the first step that has to load: one
 * method per lookup serves both, instead of a synchronous `peek` beside every asynchronous `get`.
 */
export type Maybe<T> = T | Promise<T>;

export function isPromise<T>(value: Maybe<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `f(value)` at once when the value is here, after it otherwise. A throw of `f` on a present value is synchronous. */
export function then<T, R>(value: Maybe<T>, f: (v: T) => Maybe<R>): Maybe<R> {
  return isPromise(value) ? value.then(f) : f(value);
}
