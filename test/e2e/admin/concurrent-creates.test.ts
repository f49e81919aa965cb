import { adminWithInput } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { translateDbError, withDbRetry } from '../../../src/domain/storage-errors';

// Twenty identical creates at once: the check before the insert sees nothing for most of them,
// so the database's unique constraint decides. One wins; the others are refused as a conflict
// (exit 1, a clear message), never an internal error.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function twentyAtOnce(...argv: string[]) {
  // A password is piped (--password-stdin), never an argument; commands without one ignore it.
  const outs = await Promise.all(Array.from({ length: 20 }, () => adminWithInput(t.c, 'correct horse battery\n', ...argv)));
  return { won: outs.filter((o) => o.code === 0), refused: outs.filter((o) => o.code !== 0) };
}

describe('concurrent identical creates through the operator CLI', () => {
  it('a channel slug: one channel, 19 conflicts', async () => {
    const { won, refused } = await twentyAtOnce('channels:create', '--slug', 'race-tv', '--name', 'Race TV');
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: conflict: channel "race-tv" already exists\n' });
    expect((await t.c.services.channels.list()).filter((c) => c.slug === 'race-tv')).toHaveLength(1);
  });

  it('a partner slug: one partner, 19 conflicts', async () => {
    const { won, refused } = await twentyAtOnce('partners:create', '--slug', 'race-partner', '--name', 'Race Partner');
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: conflict: partner "race-partner" already exists\n' });
  });

  it('a studio user email: one user, 19 conflicts', async () => {
    const { won, refused } = await twentyAtOnce('studio-users:create', '--email', 'Race@Example.com', '--password-stdin');
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: conflict: a studio user "race@example.com" already exists\n' });
  });
});

describe('the database edge', () => {
  it('names the field of an unknown unique constraint, and maps a missing reference to invalid_reference', () => {
    const unique = translateDbError({ code: '23505', constraint: 'thing_name_unique', detail: 'Key (name)=(x) already exists.' });
    expect(unique).toMatchObject({ code: 'conflict', message: 'name is already taken', details: { field: 'name' } });
    const fk = translateDbError({
      code: '23503',
      constraint: 'fighter_country_slug_foreign',
      detail: 'Key (country_slug)=(xx) is not present in table "country".',
    });
    expect(fk).toMatchObject({ code: 'invalid_reference', message: 'country_slug "xx" does not exist' });
    expect(translateDbError({ code: '40001' })).toMatchObject({ code: 'conflict' });
    expect(translateDbError(new Error('boom'))).toBeNull();
  });

  it('runs a transaction again after a serialization failure', async () => {
    let calls = 0;
    const result = await withDbRetry(async () => {
      calls += 1;
      if (calls < 3) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      return 'done';
    });
    expect({ result, calls }).toEqual({ result: 'done', calls: 3 });
    await expect(
      withDbRetry(async () => {
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
