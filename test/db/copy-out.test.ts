import 'reflect-metadata';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/config/config';
import { copyRows, type CopyRow } from '../../src/db/copy-out';
import { openDatabase, type Database } from '../../src/db/database';
import { sql } from '../../src/domain/unit-of-work';
import { provisionTestDatabase } from '../helpers/test-database';
import { entities } from '../../src/entities';

let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await provisionTestDatabase();
  drop = database.drop;
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, LOG_LEVEL: 'silent', DB_POOL_MAX: '1' });
  db = await openDatabase(config, { entities, migrate: false });
});
afterAll(async () => {
  await db?.close();
  await drop?.();
});

const inTx = <T>(fn: (em: EntityManager) => Promise<T>) => db.orm.em.fork().transactional((em) => fn(em as EntityManager));

describe('copyRows (COPY ... TO STDOUT on the transaction)', () => {
  it('hands over every row as text, NULL as null, whatever characters the values hold', async () => {
    const rows: CopyRow[] = [];
    const n = await inTx((em) =>
      copyRows(
        em,
        `select * from (values (1, 'plain', 1.5::float8, true), (2, E'tab\\there, new\\nline, back\\\\slash, cr\\r', null, false),
                             (3, 'Zoë Ñandú 🥊', 0.1::float8 + 0.2::float8, null)) as v(n, s, x, b) order by n`,
        [],
        (r) => rows.push(r),
      ),
    );
    expect(n).toBe(3);
    expect(rows).toEqual([
      ['1', 'plain', '1.5', 't'],
      ['2', 'tab\there, new\nline, back\\slash, cr\r', null, 'f'],
      ['3', 'Zoë Ñandú 🥊', '0.30000000000000004', null],
    ]);
    // float8 comes back as its shortest exact text: Number() reads the very double.
    expect(Number(rows[2][2])).toBe(0.1 + 0.2);
  });

  it('formats ? parameters into the statement (COPY takes no bind parameters)', async () => {
    const rows: CopyRow[] = [];
    await inTx((em) => copyRows(em, `select ?::date + 1, ?::text`, ['2026-02-28', "O'Brien"], (r) => rows.push(r)));
    expect(rows).toEqual([['2026-03-01', "O'Brien"]]);
  });

  it("sees the transaction's own writes, and leaves the transaction usable after a failing row handler", async () => {
    await expect(
      inTx(async (em) => {
        await sql(em, `create temporary table copy_probe (n int) on commit drop`);
        await sql(em, `insert into copy_probe select generate_series(1, 5000)`);
        let seen = 0;
        await expect(
          copyRows(em, `select n from copy_probe order by n`, [], (r) => {
            seen += 1;
            if (r[0] === '10') throw new RangeError('row 10');
          }),
        ).rejects.toThrow('row 10');
        expect(seen).toBe(10);
        return sql<{ n: number }[]>(em, `select count(*)::int as n from copy_probe`);
      }),
    ).resolves.toEqual([{ n: 5000 }]);
  });

  it("fails with the server's error, and the connection serves the next transaction", async () => {
    await expect(inTx((em) => copyRows(em, `select 1 / (n - 2) from generate_series(1, 3) n`, [], () => undefined))).rejects.toThrow(/division by zero/);
    await expect(inTx((em) => sql(em, `select 1 as ok`))).resolves.toEqual([{ ok: 1 }]);
  });

  it('runs only on a transaction', async () => {
    await expect(copyRows(db.orm.em.fork() as EntityManager, `select 1`, [], () => undefined)).rejects.toThrow(/transaction/);
  });
});
