import { findDemoFixtures } from '../../demo/demo.fixtures';
import { seedDemoIfEmpty } from '../../demo/demo.seed';
import { sql } from '../../domain/unit-of-work';
import { type Command, integer, table } from '../command';

export const demoCommands: Command[] = [
  {
    name: 'demo:seed', summary: 'seed the deterministic demo data into an empty database', usage: '',
    async run({ c }) {
      const summary = await seedDemoIfEmpty(c);
      return summary
        ? { json: { seeded: true, ...summary }, text: `seeded: ${JSON.stringify(summary)}` }
        : { json: { seeded: false }, text: 'the database already has data: nothing seeded' };
    },
  },
  {
    name: 'demo:fixtures', summary: 'document numbers of each status and a minor, for trying /verify', usage: '',
    async run({ c }) {
      const f = await findDemoFixtures(c);
      const rows = Object.entries(f.numbers).flatMap(([kind, byStatus]) => Object.entries(byStatus).map(([status, number]) => ({ kind, status, number })));
      return { json: { ...f }, text: `minor: ${f.minorSlug}\nminor's licence: ${f.minorNumber}\n${table(rows, ['kind', 'status', 'number'])}` };
    },
  },
  {
    name: 'audit:list', summary: 'the latest audited changes', usage: '[--limit N]', options: { limit: { type: 'string' } },
    async run({ c }, { values }) {
      const rows = await sql<Record<string, unknown>[]>(c.orm.em.fork(),
        `select at, actor, action, subject, data from audit_entry order by at desc, id limit ?`, [Math.min(integer(values, 'limit') ?? 50, 1000)]);
      return { json: { entries: rows }, text: table(rows, ['at', 'actor', 'action', 'subject']) };
    },
  },
];
