import type { EntityManager } from '@mikro-orm/postgresql';
import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import type { SeedProgressListener } from '../startup/startup-state';
import { rebuildReadModel } from '../domain/catalog/read-model/read-model.refresh';
import { DEMO_KEYS } from './demo-keys';
import { writeFightersEventsBouts } from './bulk/plan.bulk';
import { demoSeedStatus, markDemoSeedCompleted, markDemoSeedStarted, wipePartialDemo } from './demo.marker';
import { seedTvDemo } from './demo-tv.seed';
import { buildScalePlan } from './scale.plan';
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
  c: Container, onProgress: SeedProgressListener = () => undefined, options: { fighters?: number } = {},
): Promise<DemoSeedOutcome | null> {
  const em = c.orm.em.fork() as EntityManager;
  const status = await demoSeedStatus(em);
  if (status === 'completed' || status === 'foreign') return null;
  if (status === 'started') await em.transactional((tx) => wipePartialDemo(tx as EntityManager));
  await markDemoSeedStarted(em);
  // A larger federation (for measurements) repeats the demo's model; the demo itself otherwise.
  const plan = options.fighters ? buildScalePlan(c.clock.today(), options.fighters) : buildDemoPlan(c.clock.today());
  await seedDemo(c, plan, onProgress);
  await markDemoSeedCompleted(em);
  return { ...summarizeDemoPlan(plan), restarted: status === 'started' };
}

export async function seedDemo(c: Container, plan: DemoPlan, onProgress: SeedProgressListener = () => undefined): Promise<void> {
  const s = c.services;
  onProgress({ phase: 'reference', done: 0, total: plan.divisions.length });
  await s.reference.upsert(actor, {
    continents: plan.continents.map((x) => ({ slug: x.slug, name: x.name })),
    countries: plan.countries.map((x) => ({ slug: x.slug, name: x.name, code: x.code, continent: x.continent })),
    divisions: plan.divisions.map((d) => ({
      id: d.key, discipline: d.discipline, category: d.category, gender: d.gender, weightClass: d.weightClass, label: d.label, sortOrder: d.order,
    })),
  });
  onProgress({ phase: 'partners', done: 0, total: DEMO_KEYS.length });
  await seedPartners(c);
  onProgress({ phase: 'channels', done: 0, total: 0 });
  await seedTvDemo(c);

  await writeFightersEventsBouts(c, plan, onProgress);

  for (const [i, asOf] of plan.rankingRuns.entries()) {
    onProgress({ phase: 'rankings', done: i, total: plan.rankingRuns.length });
    await s.rankings.publish(actor, asOf);
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
      partnerSlug: k.partner, name: k.token.replace(/^pk_/, ''), scopes: k.scopes, rateLimitPerMinute: k.limit,
      expiresAt: k.expired ? new Date('2025-01-01T00:00:00Z') : null, fixedToken: k.token,
    });
    if (k.revoked) await s.revokeKey(actor, key.id);
  }
  await s.setStatus(actor, 'demo-suspended', 'suspended');
}
