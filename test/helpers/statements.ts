import { Client } from 'pg';

/** Counts the SQL statements the app sends, at the driver, while `fn` runs. */
export async function countStatements(fn: () => Promise<unknown>): Promise<number> {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return n;
}
