import type { EntityManager } from '@mikro-orm/postgresql';
import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import type { SeedProgressListener } from '../startup/startup-state';
import { rebuildReadModel } from '../domain/catalog/read-model/read-model.refresh';
import { DEMO_KEYS } from './demo-keys';
import { BulkWriter, writeFightersEventsBouts } from './bulk/plan.bulk';
import { demoSeedStatus, markDemoSeedCompleted, markDemoSeedStarted, wipePartialDemo } from './demo.marker';
import { seedTvDemo } from './demo-tv.seed';
import { createFixtureEvent, recordFixtureResults } from './demo-fixture-event';
import { addSummaries, buildScaleCopy, scaleCopies, scaleEvents, scaleRankingRuns } from './scale.plan';
import { buildDemoPlan, summarizeDemoPlan, type DemoPlan, type DemoPlanSummary } from './demo.plan';

export { DEMO_KEYS } from './demo-keys';
export { DEMO_CHANNEL_KEYS, DEMO_STUDIO_USERS } from './demo-tv.seed';

const actor: Actor = { id: 'demo-seed' };

export interface DemoSeedOutcome extends DemoPlanSummary {
  /** True when a seed killed part-way was wiped and redone. */
  restarted: boolean;
}

/**
 * Seeds the demonstration data through the domain services, exactly as the operator's workflow
 * would create it, into an empty database. A marker row (demo_seed) is committed 'started'
 * before the first demo row and set 'completed' after the last, so that a start killed mid-seed
 * is recognised on the next one: the partial rows are wiped and the seed starts over.
 * Returns null when there is nothing to do (seeded already, or the database has other data).
 */
export async function seedDemoIfEmpty(
  c: Container,
  onProgress: SeedProgressListener = () => undefined,
  options: { fighters?: number } = {},
): Promise<DemoSeedOutcome | null> {
  const em = c.orm.em.fork() as EntityManager;
  const status = await demoSeedStatus(em);
  if (status === 'completed' || status === 'foreign') return null;
  if (status === 'started') await em.transactional((tx) => wipePartialDemo(tx as EntityManager));
  await markDemoSeedStarted(em);
  // A larger federation (for measurements) repeats the demo's model; the demo itself otherwise.
  const summary = options.fighters
    ? await seedScale(c, options.fighters, onProgress)
    : summarizeDemoPlan(await seedDemo(c, buildDemoPlan(c.clock.today()), onProgress));
  await markDemoSeedCompleted(em);
  return { ...summary, restarted: status === 'started' };
}

export async function seedDemo(c: Container, plan: DemoPlan, onProgress: SeedProgressListener = () => undefined): Promise<DemoPlan> {
  await seedSharedData(c, plan, onProgress);
  // The fixed-date event of the documents' examples takes the first event code (demo-fixture-event.ts).
  await createFixtureEvent(c, actor);
  await writeFightersEventsBouts(c, plan, onProgress);
  await recordFixtureResults(c, actor);
  await publishRuns(c, plan.rankingRuns, onProgress);
  return plan;
}

/**
 * The scale data set (see scale.plan.ts): the whole calendar first, then one copy of the model
 * at a time, planned, written and let go, so that memory does not grow with the federation.
 */
async function seedScale(c: Container, fighters: number, onProgress: SeedProgressListener): Promise<DemoPlanSummary> {
  const today = c.clock.today();
  const first = buildScaleCopy(today, 0);
  const copies = scaleCopies(fighters, first.fighters.length);
  await seedSharedData(c, first, onProgress);
  const writer = await BulkWriter.open(c, today, onProgress);
  await writer.events(scaleEvents(today, copies));
  let summary: DemoPlanSummary | null = null;
  for (let k = 0; k < copies; k++) {
    onProgress({ phase: 'bouts', done: k, total: copies, unit: 'copies (fighters and bouts)' });
    const copy = k === 0 ? first : buildScaleCopy(today, k);
    await writer.fighters(copy.fighters, false);
    await writer.bouts(copy.bouts, false);
    writer.forgetFighters();
    const s = summarizeDemoPlan(copy);
    summary = summary ? addSummaries(summary, s) : s;
  }
  onProgress({ phase: 'bouts', done: copies, total: copies, unit: 'copies (fighters and bouts)' });
  // Statistics for the publication's reads of the tables just filled.
  await c.orm.em.getConnection().execute('analyze');
  await publishRuns(c, scaleRankingRuns(today), onProgress);
  return summary!;
}

/** Reference data, partners and their keys, the TV channels: what every copy shares. */
async function seedSharedData(c: Container, plan: DemoPlan, onProgress: SeedProgressListener): Promise<void> {
  const s = c.services;
  onProgress({ phase: 'reference', done: 0, total: plan.divisions.length });
  await s.reference.upsert(actor, {
    continents: plan.continents.map((x) => ({ slug: x.slug, name: x.name })),
    countries: plan.countries.map((x) => ({ slug: x.slug, name: x.name, code: x.code, continent: x.continent })),
    divisions: plan.divisions.map((d) => ({
      id: d.key,
      discipline: d.discipline,
      category: d.category,
      gender: d.gender,
      weightClass: d.weightClass,
      label: d.label,
      sortOrder: d.order,
    })),
  });
  onProgress({ phase: 'partners', done: 0, total: DEMO_KEYS.length });
  await seedPartners(c);
  onProgress({ phase: 'channels', done: 0, total: 0 });
  await seedTvDemo(c);
}

async function publishRuns(c: Container, runs: readonly string[], onProgress: SeedProgressListener): Promise<void> {
  for (const [i, asOf] of runs.entries()) {
    onProgress({ phase: 'rankings', done: i, total: runs.length });
    await c.services.rankings.publish(actor, asOf);
  }
  onProgress({ phase: 'finishing', done: 0, total: 0 });
  await c.orm.em.fork().transactional((em) => rebuildReadModel(em as EntityManager));
  // Fresh statistics for the planner: the embedded database never runs autovacuum.
  await c.orm.em.getConnection().execute('analyze');
  c.readContext.invalidate();
}

async function seedPartners(c: Container): Promise<void> {
  const s = c.services.partners;
  await s.create(actor, { slug: 'demo-media', name: 'Demo Media' });
  await s.create(actor, { slug: 'demo-suspended', name: 'Suspended Stats Ltd' });
  for (const k of DEMO_KEYS) {
    const { key } = await s.issueKey(actor, {
      partnerSlug: k.partner,
      name: k.token.replace(/^pk_/, ''),
      scopes: k.scopes,
      rateLimitPerMinute: k.limit,
      expiresAt: k.expired ? new Date('2025-01-01T00:00:00Z') : null,
      fixedToken: k.token,
    });
    if (k.revoked) await s.revokeKey(actor, key.id);
  }
  await s.setStatus(actor, 'demo-suspended', 'suspended');
}
