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

/** A pg client answering every query with `rows`; `sent()` lists the texts it was sent. */
const client = (rows: unknown[] = [{ n: 1 }]) => {
  const query = jest.fn(async (_text: string) => ({ rows }));
  return { query, sent: () => query.mock.calls.map(([text]) => text) };
};

const nameIn = (prepare: string) => /^prepare (s_[0-9a-f]+_[0-9a-f]+) as /.exec(prepare)![1];

describe('preparedStatement', () => {
  it('prepares once per pg client, with numbered parameters, and executes with the values as literals', async () => {
    const a = client();
    const b = client();
    const { connection, released, execute } = pooled([a, b]);
    const run = preparedStatement<{ n: number }>('select ?::int + ?::int as n, ?::jsonb as j');
    expect(await run(connection, [1, 2, `{"it's":"a\\b"}`])).toEqual([{ n: 1 }]);
    await run(connection, [3, null, 'x']);
    await run(connection, [5, 6, 'y']);
    expect(execute).not.toHaveBeenCalled();
    const name = nameIn(a.sent()[0]);
    expect(a.sent()).toEqual([
      `prepare ${name} as select $1::int + $2::int as n, $3::jsonb as j`,
      // quotes doubled; a backslash makes it an E'' literal with the backslash doubled
      `execute ${name}(1, 2, E'{"it''s":"a\\\\b"}')`,
      `execute ${name}(5, 6, 'y')`,
    ]);
    // Another client prepares its own name (on the embedded database every client shares one session).
    const other = nameIn(b.sent()[0]);
    expect(other).not.toBe(name);
    expect(b.sent()[1]).toBe(`execute ${other}(3, null, 'x')`);
    expect(released).toEqual([a, b, a]);
  });

  it('sets the planner settings LOCAL in the message of each execution, and answers the last result', async () => {
    const pg = {
      query: jest.fn(async (text: string) => (text.startsWith('prepare') ? { rows: [] } : [{ rows: [] }, { rows: [{ n: 7 }] }])),
    };
    const { connection } = pooled([pg]);
    const run = preparedStatement<{ n: number }>('select ?::int as n', { planner: { enable_bitmapscan: 'off' } });
    expect(await run(connection, [7])).toEqual([{ n: 7 }]);
    const name = nameIn(pg.query.mock.calls[0][0]);
    expect(pg.query.mock.calls[1][0]).toBe(`set local enable_bitmapscan = off; execute ${name}(7)`);
    expect(() => preparedStatement('select 1', { planner: { 'enable_seqscan = on; drop table x; --': 'off' } })).toThrow('not a planner setting');
  });

  it('refuses a parameter it cannot write as a literal, before taking a client', async () => {
    const pg = client();
    const { connection, released } = pooled([pg]);
    await expect(preparedStatement('select ?::int')(connection, [Number.NaN])).rejects.toThrow('finite number');
    await expect(preparedStatement('select ?::date')(connection, [new Date()])).rejects.toThrow('not object');
    expect(pg.sent()).toEqual([]);
    expect(released).toEqual([]);
  });

  it('gives the client back when the statement fails', async () => {
    const failing = { query: jest.fn(async () => Promise.reject(new Error('boom'))) };
    const { connection, released } = pooled([failing]);
    await expect(preparedStatement('select 1')(connection, [])).rejects.toThrow('boom');
    expect(released).toEqual([failing]);
  });

  it('prepares the statement again when a migration changed its result types', async () => {
    const changed = Object.assign(new Error('cached plan must not change result type'), { code: '0A000' });
    let executions = 0;
    const stale = {
      query: jest.fn(async (text: string) => {
        if (!text.startsWith('execute')) return { rows: [] };
        if (++executions === 1) throw changed;
        return { rows: [{ n: 3 }] };
      }),
    };
    const { connection, released } = pooled([stale]);
    expect(await preparedStatement('select ?::int as n')(connection, [3])).toEqual([{ n: 3 }]);
    const sent = stale.query.mock.calls.map(([text]) => text);
    const name = nameIn(sent[0]);
    expect(sent).toEqual([`prepare ${name} as select $1::int as n`, `execute ${name}(3)`, `deallocate ${name}`, sent[0], `execute ${name}(3)`]);
    expect(released).toEqual([stale]);
  });

  it('prepares the statement again once its plan is older than replanAfterMs, so a plan made on an empty queue does not outlive it', async () => {
    const pg = client();
    const { connection } = pooled([pg]);
    let clock = 1_000;
    const run = preparedStatement('select ?::int as n', { replanAfterMs: 10_000, now: () => clock });
    await run(connection, [1]);
    clock += 9_999;
    await run(connection, [2]);
    const name = nameIn(pg.sent()[0]);
    const prepare = pg.sent()[0];
    expect(pg.sent()).toEqual([prepare, `execute ${name}(1)`, `execute ${name}(2)`]);
    clock += 1;
    await run(connection, [3]);
    // Dropped, then prepared again under the same name, then kept for the next interval.
    expect(pg.sent().slice(3)).toEqual([`deallocate ${name}`, prepare, `execute ${name}(3)`]);
    clock += 5_000;
    await run(connection, [4]);
    expect(pg.sent().slice(6)).toEqual([`execute ${name}(4)`]);
  });

  it('runs through execute on a connection without a pg pool', async () => {
    const execute = jest.fn(async () => [{ n: 2 }]);
    const rows = await preparedStatement('select ?::int as n')({ execute } as unknown as Connection, [2]);
    expect(rows).toEqual([{ n: 2 }]);
    expect(execute).toHaveBeenCalledWith('select ?::int as n', [2]);
  });
});
