import type { EventLevel, EventStatus } from '../../domain/events/event.entity';
import { type Command, integer, lines, optional, required, UsageError } from '../command';

const fighterOut = (f: { slug: string; name: string; status: string; fighterCode: string | null }) => ({ slug: f.slug, name: f.name, status: f.status, fighter_code: f.fighterCode });
const licenceOut = (r: { fighter: { slug: string; status: string; fighterCode: string | null }; licence: { licenceNo: string; state: string; validUntil: string | null } }) => ({
  fighter: r.fighter.slug, fighter_code: r.fighter.fighterCode, status: r.fighter.status, licence_no: r.licence.licenceNo, licence_state: r.licence.state, valid_until: r.licence.validUntil,
});

export const sportCommands: Command[] = [
  {
    name: 'fighters:register', summary: 'register a fighter (identity and contact data stay private)',
    usage: '--name N --country C --division ID --dob DATE --email E --phone P --address A [--nickname K] [--apply] [--unpublished]',
    options: {
      name: { type: 'string' }, country: { type: 'string' }, division: { type: 'string' }, dob: { type: 'string' }, email: { type: 'string' },
      phone: { type: 'string' }, address: { type: 'string' }, nickname: { type: 'string' }, apply: { type: 'boolean' }, unpublished: { type: 'boolean' },
    },
    async run({ c, actor }, { values }) {
      const f = await c.services.fighters.register(actor, {
        name: required(values, 'name'), countrySlug: required(values, 'country'), divisionId: required(values, 'division'), dateOfBirth: required(values, 'dob'),
        email: required(values, 'email'), phone: required(values, 'phone'), address: required(values, 'address'), nickname: optional(values, 'nickname'),
        applyForLicence: values.apply === true, rankingPublished: values.unpublished !== true,
      });
      return { json: { fighter: fighterOut(f) }, text: lines(fighterOut(f)) };
    },
  },
  {
    name: 'licences:issue', summary: 'issue (or renew) a licence and a fighter ID: licence.issued', usage: 'SLUG [--issued-on DATE] [--valid-until DATE]',
    args: ['slug'], options: { 'issued-on': { type: 'string' }, 'valid-until': { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const r = await c.services.fighters.issueLicence(actor, positionals[0], { issuedOn: optional(values, 'issued-on'), validUntil: optional(values, 'valid-until') });
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:suspend', summary: 'suspend a licence: licence.suspended', usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const r = await c.services.fighters.suspendLicence(actor, positionals[0]);
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:reinstate', summary: 'reinstate a suspended licence', usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const r = await c.services.fighters.reinstateLicence(actor, positionals[0]);
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:revoke', summary: 'withdraw a licence (its number answers NO MATCHING RECORD)', usage: 'SLUG', args: ['slug'],
    async run({ c, actor }, { positionals }) {
      const f = await c.services.fighters.revokeLicence(actor, positionals[0]);
      return { json: { fighter: fighterOut(f) }, text: lines(fighterOut(f)) };
    },
  },
  {
    name: 'events:create', summary: 'create an event (served to partners once sanctioned)', usage: '--name N --country C --date DATE [--city X] [--level L] [--status S]',
    options: { name: { type: 'string' }, country: { type: 'string' }, date: { type: 'string' }, city: { type: 'string' }, level: { type: 'string' }, status: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const e = await c.services.events.create(actor, {
        name: required(values, 'name'), countrySlug: required(values, 'country'), date: required(values, 'date'), city: optional(values, 'city'),
        level: (optional(values, 'level') as EventLevel | undefined) ?? null, status: optional(values, 'status') as EventStatus | undefined,
      });
      const out = { code: e.code, name: e.name, date: e.date, level: e.level, status: e.status };
      return { json: { event: out }, text: lines(out) };
    },
  },
  {
    name: 'events:sanction', summary: 'sanction an event: event.sanctioned', usage: 'CODE', args: ['code'],
    async run({ c, actor }, { positionals }) {
      const e = await c.services.events.sanction(actor, positionals[0]);
      return { json: { code: e.code, sanctioned_at: e.sanctionedAt }, text: lines({ code: e.code, sanctioned_at: e.sanctionedAt }) };
    },
  },
  {
    name: 'events:set-status', summary: 'set an event status (scheduled, live, completed, cancelled)', usage: 'CODE --status S', args: ['code'], options: { status: { type: 'string' } },
    async run({ c, actor }, { values, positionals }) {
      const e = await c.services.events.setStatus(actor, positionals[0], required(values, 'status') as EventStatus);
      return { json: { code: e.code, status: e.status }, text: lines({ code: e.code, status: e.status }) };
    },
  },
  {
    name: 'results:record', summary: 'record a bout result (counts once verified)', usage: '--event CODE --winner SLUG --loser SLUG [--draw] [--nc] [--method M] [--round R]',
    options: { event: { type: 'string' }, winner: { type: 'string' }, loser: { type: 'string' }, draw: { type: 'boolean' }, nc: { type: 'boolean' }, method: { type: 'string' }, round: { type: 'string' } },
    async run({ c, actor }, { values }) {
      const b = await c.services.results.record(actor, {
        eventCode: required(values, 'event'), winnerSlug: required(values, 'winner'), loserSlug: required(values, 'loser'),
        draw: values.draw === true, noContest: values.nc === true, method: optional(values, 'method'), round: integer(values, 'round'),
      });
      const out = { id: b.id, event: required(values, 'event'), order: b.order, outcome: b.outcome, method: b.method, round: b.round };
      return { json: { result: out }, text: `${lines(out)}\nVerify it with: results:verify ${b.id}` };
    },
  },
  {
    name: 'results:verify', summary: 'verify a recorded result: result.verified', usage: 'ID', args: ['id'],
    async run({ c, actor }, { positionals }) {
      const b = await c.services.results.verify(actor, positionals[0]);
      return { json: { id: b.id, verified_at: b.verifiedAt }, text: lines({ id: b.id, verified_at: b.verifiedAt }) };
    },
  },
  {
    name: 'rankings:publish', summary: 'compute and publish a ranking run: ranking.published', usage: '[--as-of DATE]', options: { 'as-of': { type: 'string' } },
    async run({ c, actor }, { values }) {
      const asOf = optional(values, 'as-of');
      if (asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw new UsageError('--as-of must be a date, YYYY-MM-DD');
      const r = await c.services.rankings.publish(actor, asOf);
      const { phases, ...figures } = r.figures;
      const out = { as_of: r.run.asOf, entries: r.entries.length, previous_as_of: r.previousAsOf, ...figures, phases };
      const seconds = Object.entries(phases).map(([k, v]) => `${k} ${v} s`);
      return { json: out, text: lines({ ...out, phases: seconds }) };
    },
  },
];
