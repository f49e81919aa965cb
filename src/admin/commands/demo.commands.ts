import { checkConsistency } from '../../demo/consistency';
import { findDemoFixtures } from '../../demo/demo.fixtures';
import { seedDemoIfEmpty } from '../../demo/demo.seed';
import { describeSeeding, type SeedingProgress } from '../../startup/startup-state';
import { sql } from '../../domain/unit-of-work';
import { type Command, integer, table, UsageError } from '../command';

export const demoCommands: Command[] = [
  {
    name: 'demo:seed',
    summary: 'seed the deterministic demo data into an empty database; --fighters N: a federation of about N fighters, then its consistency checks',
    options: { fighters: { type: 'string', arg: 'N', help: 'about how many fighters, 1 to 1000000 (none: the demo, about 1,660)' } },
    examples: ['', '--fighters 100000'],
    async run({ c }, { values }) {
      const fighters = integer(values, 'fighters');
      if (fighters !== undefined && (fighters < 1 || fighters > 1_000_000)) throw new UsageError('--fighters must be from 1 to 1000000');
      const started = Date.now();
      const phases: Record<string, number> = {};
      let phase: { name: string; at: number } | null = null;
      let lastPrint = 0;
      const onProgress = (p: SeedingProgress) => {
        const now = Date.now();
        if (phase?.name !== p.phase) {
          if (phase) phases[phase.name] = (now - phase.at) / 1000;
          phase = { name: p.phase, at: now };
        }
        // Progress goes to stderr, so that --json output stays one object.
        if (now - lastPrint >= 2_000 || p.done === 0) {
          lastPrint = now;
          process.stderr.write(`[${((now - started) / 1000).toFixed(1)} s] seeding: ${describeSeeding(p)}\n`);
        }
      };
      const summary = await seedDemoIfEmpty(c, onProgress, { fighters });
      if (!summary) return { json: { seeded: false }, text: 'the database already has data: nothing seeded' };
      const closing = phase as { name: string; at: number } | null;
      if (closing) phases[closing.name] = (Date.now() - closing.at) / 1000;
      const seconds = (Date.now() - started) / 1000;
      if (!fighters) return { json: { seeded: true, ...summary, seconds }, text: `seeded in ${seconds} s: ${JSON.stringify(summary)}` };
      process.stderr.write('checking consistency...\n');
      const checkStarted = Date.now();
      const checks = await checkConsistency(c.orm.em.fork());
      const out = { seeded: true, ...summary, seconds, phases, consistency: checks, consistencySeconds: (Date.now() - checkStarted) / 1000 };
      if (checks.some((x) => x.violations > 0)) throw new Error(`consistency checks failed: ${JSON.stringify(checks.filter((x) => x.violations > 0))}`);
      return {
        json: out,
        text: `seeded in ${seconds} s: ${JSON.stringify({ ...summary, phases })}\n${table(
          checks.map((x) => ({ ...x })),
          ['violations', 'name'],
        )}`,
      };
    },
  },
  {
    name: 'demo:fixtures',
    summary: 'document numbers of each status and a minor, for trying /verify',
    examples: ['', '--json'],
    async run({ c }) {
      const f = await findDemoFixtures(c);
      const rows = Object.entries(f.numbers).flatMap(([kind, byStatus]) => Object.entries(byStatus).map(([status, number]) => ({ kind, status, number })));
      return { json: { ...f }, text: `minor: ${f.minorSlug}\nminor's licence: ${f.minorNumber}\n${table(rows, ['kind', 'status', 'number'])}` };
    },
  },
  {
    name: 'audit:list',
    summary: 'the latest audited changes',
    options: { limit: { type: 'string', arg: 'N', default: '50', help: 'how many, at most 1000' } },
    examples: ['--limit 200'],
    async run({ c }, { values }) {
      const rows = await sql<Record<string, unknown>[]>(
        c.orm.em.fork(),
        `select at, actor, action, subject, data from audit_entry order by at desc, id limit ?`,
        [Math.min(integer(values, 'limit') ?? 50, 1000)],
      );
      return { json: { entries: rows }, text: table(rows, ['at', 'actor', 'action', 'subject']) };
    },
  },
];
