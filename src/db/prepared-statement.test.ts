import type { Connection } from '@mikro-orm/core';
import { preparedStatement } from './prepared-statement';

/** A connection whose knex pool hands out the given pg clients in turn, recording what ran. */
function pooled(clients: { query: jest.Mock }[]) {
  let next = 0;
  const released: unknown[] = [];
  const execute = jest.fn();
  const connection = {
    execute,
    getKnex: () => ({
      client: {
        acquireConnection: async () => clients[next++ % clients.length],
        releaseConnection: async (c: unknown) => released.push(c),
      },
    }),
  } as unknown as Connection;
  return { connection, released, execute };
}

const client = (rows: unknown[] = [{ n: 1 }]) => ({ query: jest.fn(async () => ({ rows })) });

describe('preparedStatement', () => {
  it('runs as a named statement with numbered parameters, one name per pg client', async () => {
    const a = client();
    const b = client();
    const { connection, released, execute } = pooled([a, b]);
    const run = preparedStatement<{ n: number }>('select ?::int + ?::int as n');
    expect(await run(connection, [1, 2])).toEqual([{ n: 1 }]);
    await run(connection, [3, 4]);
    await run(connection, [5, 6]);
    expect(execute).not.toHaveBeenCalled();
    const [first] = a.query.mock.calls[0] as unknown as [{ name: string; text: string; values: unknown[] }];
    expect(first).toEqual({ name: expect.stringMatching(/^s_[0-9a-f]+_[0-9a-f]+$/), text: 'select $1::int + $2::int as n', values: [1, 2] });
    // The same client reuses its name (pg parses it once); another client has its own.
    expect((a.query.mock.calls[1] as unknown as [{ name: string }])[0].name).toBe(first.name);
    expect((b.query.mock.calls[0] as unknown as [{ name: string }])[0].name).not.toBe(first.name);
    expect(released).toEqual([a, b, a]);
  });

  it('gives the client back when the statement fails', async () => {
    const failing = { query: jest.fn(async () => Promise.reject(new Error('boom'))) };
    const { connection, released } = pooled([failing]);
    await expect(preparedStatement('select 1')(connection, [])).rejects.toThrow('boom');
    expect(released).toEqual([failing]);
  });

  it('prepares the statement again when a migration changed its result types', async () => {
    const changed = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    const parsedStatements: Record<string, string> = {};
    const stale = {
      connection: { parsedStatements },
      query: jest.fn(async (q: { name: string; text: string } | string) => {
        if (typeof q === 'string') return { rows: [] };
        if (stale.query.mock.calls.length === 1) {
          parsedStatements[q.name] = q.text;
          throw changed;
        }
        return { rows: [{ n: 3 }] };
      }),
    };
    const { connection, released } = pooled([stale]);
    expect(await preparedStatement('select ?::int as n')(connection, [3])).toEqual([{ n: 3 }]);
    const name = (stale.query.mock.calls[0] as unknown as [{ name: string }])[0].name;
    expect(stale.query.mock.calls[1]).toEqual([`deallocate ${name}`]);
    expect(parsedStatements).toEqual({});
    expect(released).toEqual([stale]);
  });

  it('prepares the statement again once its plan is older than replanAfterMs, so a plan made on an empty queue does not outlive it', async () => {
    const parsedStatements: Record<string, string> = {};
    const pg = {
      connection: { parsedStatements },
      query: jest.fn(async (q: { name: string; text: string } | string) => {
        if (typeof q !== 'string') parsedStatements[q.name] = q.text;
        return { rows: [{ n: 1 }] };
      }),
    };
    const { connection } = pooled([pg]);
    let clock = 1_000;
    const run = preparedStatement('select ?::int as n', { replanAfterMs: 10_000, now: () => clock });
    await run(connection, [1]);
    clock += 9_999;
    await run(connection, [2]);
    const calls = () => pg.query.mock.calls.map(([q]) => (typeof q === 'string' ? q : 'execute'));
    expect(calls()).toEqual(['execute', 'execute']);
    clock += 1;
    await run(connection, [3]);
    const name = (pg.query.mock.calls[0] as unknown as [{ name: string }])[0].name;
    // Dropped, then parsed again under the same name (pg forgets it was parsed), then kept for the next interval.
    expect(calls()).toEqual(['execute', 'execute', `deallocate ${name}`, 'execute']);
    expect(parsedStatements[name]).toBe('select $1::int as n');
    clock += 5_000;
    await run(connection, [4]);
    expect(calls()).toHaveLength(5);
  });

  it('runs through execute on a connection without a pg pool', async () => {
    const execute = jest.fn(async () => [{ n: 2 }]);
    const rows = await preparedStatement('select ?::int as n')({ execute } as unknown as Connection, [2]);
    expect(rows).toEqual([{ n: 2 }]);
    expect(execute).toHaveBeenCalledWith('select ?::int as n', [2]);
  });
});
