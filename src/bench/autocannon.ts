/**
 * A typed view of the small part of autocannon 9's programmatic API the bench uses.
 * autocannon ships no types and @types/autocannon is not installed, so it is loaded with
 * require and given this local interface (see node_modules/autocannon/README.md, "API").
 */

export interface AutocannonOptions {
  url: string;
  connections?: number;
  /** Seconds. */
  duration?: number;
  /** Seconds before a request counts as a timeout. */
  timeout?: number;
  pipelining?: number;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  title?: string;
}

/** hdr-histogram-percentiles-obj: latency in ms, requests and throughput per second. */
export interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p2_5: number;
  p50: number;
  p75: number;
  p90: number;
  p97_5: number;
  p99: number;
  p99_9: number;
}

export interface AutocannonResult {
  title?: string;
  url: string;
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  /** Seconds. */
  duration: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void;
  on(event: 'done', listener: (result: AutocannonResult) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
}

export type Autocannon = (opts: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => AutocannonInstance;

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const autocannon = require('autocannon') as Autocannon;

/** Runs one autocannon instance; `onStart` receives it so a SIGINT can stop it. */
export function runAutocannon(opts: AutocannonOptions, onStart?: (i: AutocannonInstance) => void): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    onStart?.(instance);
  });
}
