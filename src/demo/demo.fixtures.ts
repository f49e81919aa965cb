import type { Container } from '../container';
import type { VerificationStatus } from '../domain/catalog/verification.queries';
import { DEMO_RECORDS } from './demo-records';

export interface DemoFixtures {
  minorSlug: string | null;
  /** A document number of a minor: /verify answers with the reduced fighter. */
  minorNumber: string | null;
  /** kind -> status -> one number answering that status. */
  numbers: Record<string, Partial<Record<VerificationStatus, string>>>;
}

/**
 * Finds, in the seeded data, one document number of each kind for each status /verify can
 * answer, and a minor's slug. Candidates come from SQL; the status is what /verify itself says.
 */
export async function findDemoFixtures(c: Container): Promise<DemoFixtures> {
  const conn = c.orm.em.getConnection();
  const ctx = await c.readContext.current();
  const adult = `join fighter_identity fi on fi.fighter_id = f.id and fi.date_of_birth <= '${ctx.adultCutoff}'`;
  const candidates: Record<string, string[]> = {
    licence_no: (
      await conn.execute<{ n: string }[]>(
        `select distinct on (l.state, l.current, l.valid_until < ?::date) l.licence_no as n
         from licence l join fighter f on f.id = l.fighter_id ${adult}
        order by l.state, l.current, l.valid_until < ?::date, l.licence_no`,
        [ctx.today, ctx.today],
      )
    ).map((r) => r.n),
    certificate_no: (
      await conn.execute<{ n: string }[]>(
        `select distinct on (c.state, c.valid_until < ?::date) c.certificate_no as n
         from certificate c join fighter f on f.id = c.fighter_id ${adult}
        order by c.state, c.valid_until < ?::date, c.certificate_no`,
        [ctx.today, ctx.today],
      )
    ).map((r) => r.n),
    fighter_code: (
      await conn.execute<{ n: string }[]>(
        `select distinct on (f.status, l.state, l.valid_until < ?::date) f.fighter_code as n
         from fighter f ${adult} left join licence l on l.fighter_id = f.id and l.current
        where f.fighter_code is not null
        order by f.status, l.state, l.valid_until < ?::date, f.fighter_code`,
        [ctx.today, ctx.today],
      )
    ).map((r) => r.n),
  };
  const numbers: DemoFixtures['numbers'] = {};
  for (const [kind, list] of Object.entries(candidates)) {
    numbers[kind] = {};
    for (const n of list) {
      const v = await c.queries.verification.verify(ctx, n);
      numbers[kind][v.status] ??= n;
    }
  }
  const minor = await conn.execute<{ slug: string }[]>(
    `select f.slug from fighter f join fighter_identity fi on fi.fighter_id = f.id where fi.date_of_birth > ?::date order by f.slug limit 1`,
    [ctx.adultCutoff],
  );
  const minorNumber = await conn.execute<{ n: string }[]>(
    `select l.licence_no as n from licence l join fighter_identity fi on fi.fighter_id = l.fighter_id
      where fi.date_of_birth > ?::date and l.current order by l.licence_no limit 1`,
    [ctx.adultCutoff],
  );
  return { minorSlug: minor[0]?.slug ?? null, minorNumber: minorNumber[0]?.n ?? null, numbers };
}

export function formatDemoFixtures(f: DemoFixtures): string[] {
  const lines = [
    `  the /docs samples' records (the same every day): event ${DEMO_RECORDS.eventCode}, fighter ${DEMO_RECORDS.fighterSlug}, ` +
      `broadcast ${DEMO_RECORDS.broadcastSlug} / ${DEMO_RECORDS.broadcastId}`,
    `  a minor's slug (profile shows name, country, division only): ${f.minorSlug ?? '-'}`,
    `  a minor's licence (/verify shows the reduced fighter):       ${f.minorNumber ?? '-'}`,
  ];
  const order = ['ACTIVE', 'SUSPENDED', 'EXPIRED', 'PENDING VERIFICATION', 'NO MATCHING RECORD'];
  for (const [kind, byStatus] of Object.entries(f.numbers)) {
    for (const status of order) {
      if (byStatus[status as keyof typeof byStatus])
        lines.push(`  /verify ${kind.padEnd(15)} ${status.padEnd(21)} ${byStatus[status as keyof typeof byStatus]}`);
    }
  }
  return lines;
}
