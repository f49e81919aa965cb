import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventLevel } from '../domain/events/event.entity';
import { resultPoints, roundPoints, type Outcome } from '../domain/rankings/points.calculator';
import { sql } from '../domain/unit-of-work';

export interface ConsistencyCheck {
  name: string;
  /** Offending rows (0 when the check holds). */
  violations: number;
}

/** Each query counts the rows that break one rule of the domain. */
const CHECKS: readonly [string, string][] = [
  [
    'every verified bout has two distinct fighters, both in its division',
    `
    select count(*)::int as n from bout b
      left join fighter a on a.id = b.fighter_a_id left join fighter z on z.id = b.fighter_b_id
     where b.verified_at is not null
       and (a.id is null or z.id is null or a.id = z.id or a.division_id <> b.division_id or z.division_id <> b.division_id)`,
  ],
  [
    'bouts are numbered 1..n on each card',
    `
    select count(*)::int as n from (select event_id, count(*) as c, max("order") as m, min("order") as f from bout group by event_id) x
     where x.m <> x.c or x.f <> 1`,
  ],
  [
    'no minor is ranked in any run',
    `
    select count(*)::int as n from ranking_entry e join ranking_run r on r.id = e.run_id
      join fighter_identity i on i.fighter_id = e.fighter_id
     where i.date_of_birth > (r.as_of - interval '18 years')::date`,
  ],
  [
    'only licensed, published fighters with an active licence are ranked in the latest run',
    `
    select count(*)::int as n from ranking_entry e
      join fighter f on f.id = e.fighter_id
      left join licence l on l.fighter_id = f.id and l.current
     where e.run_id = (select id from ranking_run order by as_of desc limit 1)
       and not (f.status = 'licensed' and f.ranking_published and l.state = 'active')`,
  ],
  [
    'licence numbers are unique and well formed',
    `
    select (count(*) - count(distinct licence_no))::int + count(*) filter (where licence_no !~ '^LIC-[A-Z]{2}-[0-9]{4}-[0-9]{6}$')::int as n from licence`,
  ],
  [
    "a licence number names its fighter's country",
    `
    select count(*)::int as n from licence l join fighter f on f.id = l.fighter_id join country c on c.slug = f.country_slug
     where substr(l.licence_no, 5, 2) <> upper(c.code)`,
  ],
  [
    'fighter IDs and certificate numbers are unique and well formed',
    `
    select (select count(*) filter (where fighter_code !~ '^FID-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$')::int from fighter)
         + (select (count(*) - count(distinct certificate_no))::int + count(*) filter (where certificate_no !~ '^CRT-[0-9]{4}-[0-9]{6}$')::int from certificate) as n`,
  ],
  [
    'at most one current licence per fighter; licensed fighters have one',
    `
    select (select count(*)::int from (select fighter_id from licence where current group by fighter_id having count(*) > 1) x)
         + (select count(*)::int from fighter f where f.status = 'licensed'
             and not exists (select 1 from licence l where l.fighter_id = f.id and l.current and l.state = 'active')) as n`,
  ],
  [
    'every fighter has an identity; slugs are unique',
    `
    select (select count(*)::int from fighter f where not exists (select 1 from fighter_identity i where i.fighter_id = f.id))
         + (select (count(*) - count(distinct slug))::int from fighter) as n`,
  ],
  [
    'ranks are competition ranks in points order within each table of the latest run',
    `
    select count(*)::int as n from (
      select e.rank, e.points, rank() over (partition by e.division_id, e.scope order by e.points desc) as expected
        from ranking_entry e where e.run_id = (select id from ranking_run order by as_of desc limit 1)) x
     where x.rank <> x.expected`,
  ],
];

const SAMPLE = 500;

/**
 * The domain's consistency checks over whatever is in the database (a bulk-seeded federation in
 * particular), plus a recomputation of the latest run's points for a sample of fighters from
 * their verified results with the points calculator.
 */
export async function checkConsistency(em: EntityManager): Promise<ConsistencyCheck[]> {
  const out: ConsistencyCheck[] = [];
  for (const [name, query] of CHECKS) out.push({ name, violations: (await sql<{ n: number }[]>(em, query))[0].n });
  out.push({ name: `the latest run's points equal a recomputation (sample of ${SAMPLE} world entries)`, violations: await recomputeSample(em) });
  return out;
}

async function recomputeSample(em: EntityManager): Promise<number> {
  const sample = await sql<{ fighter_id: string; division_id: string; points: number; as_of: string }[]>(
    em,
    `
    select e.fighter_id, e.division_id, e.points, r.as_of::text as as_of
      from ranking_entry e join ranking_run r on r.id = e.run_id
     where r.id = (select id from ranking_run order by as_of desc limit 1) and e.scope = 'world'
     order by md5(e.fighter_id::text) limit ${SAMPLE}`,
  );
  if (sample.length === 0) return 0;
  const asOf = sample[0].as_of;
  const results = await sql<{ fighter_id: string; division_id: string; result: Outcome; method: string | null; level: EventLevel | null; date: string }[]>(
    em,
    `
    select r.fighter_id, r.division_id, r.result, r.method, ev.level, ev.date::text as date
      from verified_result r join event ev on ev.id = r.event_id
     where r.fighter_id = any(?::uuid[]) and ev.sanctioned_at is not null and ev.date <= ?`,
    [`{${sample.map((s) => s.fighter_id).join(',')}}`, asOf],
  );
  const sums = new Map<string, number>();
  for (const r of results) {
    const key = `${r.fighter_id}|${r.division_id}`;
    sums.set(key, (sums.get(key) ?? 0) + resultPoints(r.result, r.method, r.level, r.date, asOf).total);
  }
  return sample.filter((s) => roundPoints(sums.get(`${s.fighter_id}|${s.division_id}`) ?? 0) !== s.points).length;
}
