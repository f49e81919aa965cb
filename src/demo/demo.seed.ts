import type { EntityManager } from '@mikro-orm/postgresql';
import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import { rebuildReadModel } from '../domain/catalog/read-model/read-model.refresh';
import { addYears } from '../domain/clock';
import { DEMO_KEYS } from './demo-keys';
import { seedTvDemo } from './demo-tv.seed';
import { buildDemoPlan, summarizeDemoPlan, type DemoFighter, type DemoPlan, type DemoPlanSummary } from './demo.plan';

export { DEMO_KEYS } from './demo-keys';
export { DEMO_CHANNEL_KEYS, DEMO_STUDIO_USERS } from './demo-tv.seed';

const actor: Actor = { id: 'demo-seed' };
const CHUNK = 20;

/**
 * Seeds the demonstration data of D8 through the domain services, exactly as the operator's
 * workflow would create it. Work is grouped in transactions of a few hundred operations so the
 * embedded database seeds in seconds rather than minutes.
 */
export async function seedDemoIfEmpty(c: Container): Promise<DemoPlanSummary | null> {
  const rows = await c.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from partner`);
  if (rows[0].n > 0) return null;
  const plan = buildDemoPlan(c.clock.today());
  await seedDemo(c, plan);
  return summarizeDemoPlan(plan);
}

export async function seedDemo(c: Container, plan: DemoPlan): Promise<void> {
  const s = c.services;
  await s.reference.upsert(actor, {
    continents: plan.continents.map((x) => ({ slug: x.slug, name: x.name })),
    countries: plan.countries.map((x) => ({ slug: x.slug, name: x.name, code: x.code, continent: x.continent })),
    divisions: plan.divisions.map((d) => ({
      id: d.key, discipline: d.discipline, category: d.category, gender: d.gender, weightClass: d.weightClass, label: d.label, sortOrder: d.order,
    })),
  });
  await seedPartners(c);
  await seedTvDemo(c);

  const slugOf = new Map<string, string>();
  await inChunks(c, plan.fighters, async (f, em) => {
    const fighter = await s.fighters.register(actor, {
      name: f.name, nickname: f.nickname, countrySlug: f.countrySlug, divisionId: f.divisionKey, dateOfBirth: f.dateOfBirth,
      email: f.email, phone: f.phone, address: f.address, rankingPublished: f.rankingPublished, applyForLicence: f.licence === 'pending',
    }, em);
    slugOf.set(f.key, fighter.slug);
    await seedLicence(c, f, fighter.slug, em);
  });

  const codeOf = new Map<string, string>();
  await inChunks(c, plan.events, async (e, em) => {
    const event = await s.events.create(actor, { name: e.name, city: e.city, countrySlug: e.countrySlug, date: e.date, level: e.level, status: e.status }, em);
    if (e.sanctioned) await s.events.sanction(actor, event.code, em);
    codeOf.set(e.key, event.code);
  });

  await inChunks(c, plan.bouts, async (b, em) => {
    const bout = await s.results.record(actor, {
      eventCode: codeOf.get(b.eventKey)!, winnerSlug: slugOf.get(b.fighterA)!, loserSlug: slugOf.get(b.fighterB)!,
      draw: b.outcome === 'draw', noContest: b.outcome === 'nc', method: b.method, round: b.round,
    }, em);
    if (b.verified) await s.results.verify(actor, bout.id, em);
  });

  for (const asOf of plan.rankingRuns) await s.rankings.publish(actor, asOf);
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

async function seedLicence(c: Container, f: DemoFighter, slug: string, em: EntityManager): Promise<void> {
  const s = c.services.fighters;
  const issue = (issuedOn: string | null, validUntil: string | null) =>
    s.issueLicence(actor, slug, { issuedOn: issuedOn ?? undefined, validUntil: validUntil ?? undefined }, em);
  switch (f.licence) {
    case 'active':
    case 'expired':
      await issue(f.licenceIssuedOn, f.licenceValidUntil);
      break;
    case 'suspended':
      await issue(f.licenceIssuedOn, f.licenceValidUntil);
      await s.suspendLicence(actor, slug, em);
      break;
    case 'renewed':
      await issue(f.previousLicenceIssuedOn, f.previousLicenceIssuedOn && addYears(f.previousLicenceIssuedOn, 1));
      await issue(f.licenceIssuedOn, f.licenceValidUntil);
      break;
    case 'revoked':
      await issue(f.licenceIssuedOn, f.licenceValidUntil);
      await s.revokeLicence(actor, slug, em);
      break;
    default:
      break;
  }
  if (f.certificate) {
    await s.issueCertificate(actor, slug, {
      kind: 'medical',
      state: f.certificate === 'expired' ? 'active' : f.certificate,
      issuedOn: f.certificateIssuedOn ?? undefined,
      validUntil: f.certificateValidUntil ?? undefined,
    }, em);
  }
}

async function inChunks<T>(c: Container, items: readonly T[], fn: (item: T, em: EntityManager) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK) {
    await c.orm.em.fork().transactional(async (em) => {
      for (const item of items.slice(i, i + CHUNK)) await fn(item, em as EntityManager);
    });
  }
}
