/**
 * Records the demo holds under the same code, slug, number or id on every install and on every
 * day it is started (README "Demo keys and fixtures"): the published documents' path examples,
 * and so their curl, Node and Postman samples, name these (test/e2e/ops/code-samples.test.ts sends
 * every sample to a seeded service). Most of the demo is dated relative to today, so an event's
 * code (`EV-<year>-<n>`) or a document number moves with the start date; these do not:
 * - the event: one fixed-date card the seed creates first (`demo-fixture-event.ts`), so it takes
 *   the code sequence's first value;
 * - the fighter: names and slugs come from the fixed seed; fighter IDs carry no year;
 * - the broadcasts: two demo-tv broadcasts seeded with a fixed slug and id (`demo-tv.seed.ts`).
 */
export const DEMO_RECORDS = {
  /** A completed, sanctioned event with verified results: `/events/{code}`, `/events/{code}/results`. */
  eventCode: 'EV-2026-0001',
  /** An adult, licensed fighter with a public profile and bouts: `/fighters/{slug}`. */
  fighterSlug: 'ivan-kravchenko',
  /** A fighter ID answering ACTIVE: `/verify/{number}`. */
  fighterId: 'FID-01HT-X1G4',
  /** The demo channel of `ck_demo_rw` and `ck_demo_ro`: `/channels/{slug}`. */
  channelSlug: 'demo-tv',
  /** A public broadcast of demo-tv, scheduled a day ahead: the public `/broadcasts/{slug}`. */
  broadcastSlug: 'saturday-prelims',
  /** A scheduled ingest broadcast of demo-tv: the channel's `/broadcasts/{id}` operations (edit, go-live, end, stream key, health). */
  broadcastId: '7c0f8a52-3e1d-4b6a-9f25-d4e8b1c06a37',
} as const;
