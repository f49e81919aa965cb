import type { EventLevel, EventStatus } from '../../domain/events/event.entity';
import { EVENT_LEVELS, EVENT_STATUSES } from '../../domain/reference/vocabulary';
import { type Command, integer, lines, optional, required, UsageError } from '../command';

const fighterOut = (f: { slug: string; name: string; status: string; fighterCode: string | null }) => ({
  slug: f.slug,
  name: f.name,
  status: f.status,
  fighter_code: f.fighterCode,
});
const licenceOut = (r: {
  fighter: { slug: string; status: string; fighterCode: string | null };
  licence: { licenceNo: string; state: string; validUntil: string | null };
}) => ({
  fighter: r.fighter.slug,
  fighter_code: r.fighter.fighterCode,
  status: r.fighter.status,
  licence_no: r.licence.licenceNo,
  licence_state: r.licence.state,
  valid_until: r.licence.validUntil,
});

export const sportCommands: Command[] = [
  {
    name: 'fighters:register',
    summary: 'register a fighter (identity and contact data stay private)',
    options: {
      name: { type: 'string', arg: 'N', required: true, help: 'full name, as published' },
      country: { type: 'string', arg: 'C', required: true, help: 'country slug (france, united-states, ...)' },
      division: { type: 'string', arg: 'ID', required: true, help: 'division id: discipline-category-gender-weight class (kickboxing-pro-f-60kg)' },
      dob: { type: 'string', arg: 'DATE', required: true, help: 'date of birth, YYYY-MM-DD (private; under 18 makes a minor)' },
      email: { type: 'string', arg: 'E', required: true, help: 'contact email (private)' },
      phone: { type: 'string', arg: 'P', required: true, help: 'contact phone (private)' },
      address: { type: 'string', arg: 'A', required: true, help: 'postal address (private)' },
      nickname: { type: 'string', arg: 'K', help: 'ring name, as published' },
      apply: { type: 'boolean', help: 'open a licence application at once (a pending licence)' },
      unpublished: { type: 'boolean', help: 'keep the fighter out of the published rankings' },
    },
    examples: [
      '--name "Zoltán Kiss" --country hungary --division kickboxing-pro-m-67kg --dob 1998-04-12 --email z.kiss@example.org --phone "+36 1 555 0100" --address "Budapest" --apply',
    ],
    async run({ c, actor }, { values }) {
      const f = await c.services.fighters.register(actor, {
        name: required(values, 'name'),
        countrySlug: required(values, 'country'),
        divisionId: required(values, 'division'),
        dateOfBirth: required(values, 'dob'),
        email: required(values, 'email'),
        phone: required(values, 'phone'),
        address: required(values, 'address'),
        nickname: optional(values, 'nickname'),
        applyForLicence: values.apply === true,
        rankingPublished: values.unpublished !== true,
      });
      return { json: { fighter: fighterOut(f) }, text: lines(fighterOut(f)) };
    },
  },
  {
    name: 'licences:issue',
    summary: 'issue (or renew) a licence and a fighter ID: licence.issued',
    args: [{ name: 'slug', help: "the fighter's slug" }],
    options: {
      'issued-on': { type: 'string', arg: 'DATE', default: 'today', help: 'issue date, YYYY-MM-DD' },
      'valid-until': { type: 'string', arg: 'DATE', default: 'a year after issue', help: 'expiry date, YYYY-MM-DD' },
    },
    examples: ['zoltan-kiss', 'zoltan-kiss --issued-on 2026-01-01 --valid-until 2026-12-31'],
    async run({ c, actor }, { values, positionals }) {
      const r = await c.services.fighters.issueLicence(actor, positionals[0], {
        issuedOn: optional(values, 'issued-on'),
        validUntil: optional(values, 'valid-until'),
      });
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:suspend',
    summary: 'suspend a licence: licence.suspended',
    args: [{ name: 'slug', help: "the fighter's slug" }],
    examples: ['zoltan-kiss'],
    async run({ c, actor }, { positionals }) {
      const r = await c.services.fighters.suspendLicence(actor, positionals[0]);
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:reinstate',
    summary: 'reinstate a suspended licence',
    args: [{ name: 'slug', help: "the fighter's slug" }],
    examples: ['zoltan-kiss'],
    async run({ c, actor }, { positionals }) {
      const r = await c.services.fighters.reinstateLicence(actor, positionals[0]);
      return { json: licenceOut(r), text: lines(licenceOut(r)) };
    },
  },
  {
    name: 'licences:revoke',
    summary: 'withdraw a licence (its number answers NO MATCHING RECORD)',
    args: [{ name: 'slug', help: "the fighter's slug" }],
    examples: ['zoltan-kiss'],
    async run({ c, actor }, { positionals }) {
      const f = await c.services.fighters.revokeLicence(actor, positionals[0]);
      return { json: { fighter: fighterOut(f) }, text: lines(fighterOut(f)) };
    },
  },
  {
    name: 'events:create',
    summary: 'create an event (served to partners once sanctioned)',
    options: {
      name: { type: 'string', arg: 'N', required: true, help: "the event's name" },
      country: { type: 'string', arg: 'C', required: true, help: 'country slug' },
      date: { type: 'string', arg: 'DATE', required: true, help: 'YYYY-MM-DD' },
      city: { type: 'string', arg: 'X', help: 'the host city' },
      level: { type: 'string', arg: 'L', values: EVENT_LEVELS, help: 'sets the points multiplier (none: 1.0)' },
      status: { type: 'string', arg: 'S', values: EVENT_STATUSES, default: 'scheduled', help: "the event's state" },
    },
    examples: ['--name "Open Cup" --country germany --date 2026-12-05 --city Berlin --level world --status completed'],
    async run({ c, actor }, { values }) {
      const e = await c.services.events.create(actor, {
        name: required(values, 'name'),
        countrySlug: required(values, 'country'),
        date: required(values, 'date'),
        city: optional(values, 'city'),
        level: (optional(values, 'level') as EventLevel | undefined) ?? null,
        status: optional(values, 'status') as EventStatus | undefined,
      });
      const out = { code: e.code, name: e.name, date: e.date, level: e.level, status: e.status };
      return { json: { event: out }, text: lines(out) };
    },
  },
  {
    name: 'events:sanction',
    summary: 'sanction an event: event.sanctioned',
    args: [{ name: 'code', help: "the event's code (events:create prints it)" }],
    examples: ['EV-2026-0500'],
    async run({ c, actor }, { positionals }) {
      const e = await c.services.events.sanction(actor, positionals[0]);
      return { json: { code: e.code, sanctioned_at: e.sanctionedAt }, text: lines({ code: e.code, sanctioned_at: e.sanctionedAt }) };
    },
  },
  {
    name: 'events:set-status',
    summary: "set an event's status",
    args: [{ name: 'code', help: "the event's code" }],
    options: { status: { type: 'string', arg: 'S', required: true, values: EVENT_STATUSES, help: 'the new state' } },
    examples: ['EV-2026-0500 --status live'],
    async run({ c, actor }, { values, positionals }) {
      const e = await c.services.events.setStatus(actor, positionals[0], required(values, 'status') as EventStatus);
      return { json: { code: e.code, status: e.status }, text: lines({ code: e.code, status: e.status }) };
    },
  },
  {
    name: 'results:record',
    summary: 'record a bout result (counts once verified)',
    options: {
      event: { type: 'string', arg: 'CODE', required: true, help: "the event's code" },
      winner: { type: 'string', arg: 'SLUG', required: true, help: "the winner's slug (with --draw or --nc, either fighter)" },
      loser: { type: 'string', arg: 'SLUG', required: true, help: "the loser's slug (same division)" },
      draw: { type: 'boolean', help: 'the bout was a draw' },
      nc: { type: 'boolean', help: 'the bout was a no contest' },
      method: { type: 'string', arg: 'M', help: 'how it ended: KO and TKO earn a win 12 points instead of 10; DEC, SUB, DQ, ... (free text)' },
      round: { type: 'string', arg: 'R', help: 'the round it ended in, 1 to 15' },
    },
    examples: [
      '--event EV-2026-0500 --winner ren-okada --loser ivan-kravchenko --method KO --round 1',
      '--event EV-2026-0500 --winner ren-okada --loser ivan-kravchenko --draw',
    ],
    async run({ c, actor }, { values }) {
      const b = await c.services.results.record(actor, {
        eventCode: required(values, 'event'),
        winnerSlug: required(values, 'winner'),
        loserSlug: required(values, 'loser'),
        draw: values.draw === true,
        noContest: values.nc === true,
        method: optional(values, 'method'),
        round: integer(values, 'round'),
      });
      const out = { id: b.id, event: required(values, 'event'), order: b.order, outcome: b.outcome, method: b.method, round: b.round };
      return { json: { result: out }, text: `${lines(out)}\nVerify it with: results:verify ${b.id}` };
    },
  },
  {
    name: 'results:verify',
    summary: 'verify a recorded result: result.verified',
    args: [{ name: 'id', help: "the result's id (results:record prints it)" }],
    examples: ['7d9e4c1a-2b3f-4e5d-8a6b-9c0d1e2f3a4b'],
    async run({ c, actor }, { positionals }) {
      const b = await c.services.results.verify(actor, positionals[0]);
      return { json: { id: b.id, verified_at: b.verifiedAt }, text: lines({ id: b.id, verified_at: b.verifiedAt }) };
    },
  },
  {
    name: 'rankings:publish',
    summary: 'compute and publish a ranking run: ranking.published',
    options: { 'as-of': { type: 'string', arg: 'DATE', default: 'today', help: 'the date the ranking is computed for, YYYY-MM-DD' } },
    examples: ['', '--as-of 2026-12-01'],
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
