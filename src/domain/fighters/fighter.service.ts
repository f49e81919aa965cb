import type { EntityManager } from '@mikro-orm/postgresql';
import { audit, type Actor } from '../audit/audit.log';
import type { Clock } from '../clock';
import { addYears } from '../clock';
import { DomainError, notFound } from '../errors';
import { Country, Division } from '../reference/reference.entities';
import { foldText, refuseControlCharacters, slugify } from '../text';
import { nextSequenceValue, sql, type UnitOfWork } from '../unit-of-work';
import { certificateNoFor, fighterCodeFor, licenceNoFor } from './document-numbers';
import { Certificate, Fighter, FighterIdentity, Licence, type CertificateState } from './fighter.entities';

export interface RegisterFighterInput {
  name: string;
  nickname?: string | null;
  countrySlug: string;
  divisionId: string;
  dateOfBirth: string;
  email: string;
  phone: string;
  address: string;
  rankingPublished?: boolean;
  /** Opens a licence application: a number is issued and answers PENDING VERIFICATION. */
  applyForLicence?: boolean;
}

export interface IssueLicenceInput {
  issuedOn?: string;
  validUntil?: string;
}

/** Registers fighters and manages their licences and certificates (operator workflow only). */
export class FighterService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async register(actor: Actor, input: RegisterFighterInput, tx?: EntityManager): Promise<Fighter> {
    refuseControlCharacters(input.name, 'name');
    refuseControlCharacters(input.nickname, 'nickname');
    return this.uow.run(tx, async (em, changed) => {
      const country = await em.findOne(Country, { slug: input.countrySlug });
      if (!country) throw new DomainError('invalid_country', `unknown country "${input.countrySlug}"`);
      const division = await em.findOne(Division, { id: input.divisionId });
      if (!division) throw new DomainError('invalid_division', `unknown division "${input.divisionId}"`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(input.dateOfBirth) || Number.isNaN(Date.parse(input.dateOfBirth))) {
        throw new DomainError('invalid_dob', 'date of birth must be YYYY-MM-DD');
      }
      const fighter = Object.assign(new Fighter(), {
        slug: await this.uniqueSlug(em, input.name),
        name: input.name.trim(),
        nickname: input.nickname?.trim() || null,
        searchText: foldText(`${input.name} ${input.nickname ?? ''}`.trim()),
        sortName: foldText(input.name.trim()),
        country,
        division,
        rankingPublished: input.rankingPublished ?? true,
        status: 'applicant' as const,
      });
      em.persist(fighter);
      em.persist(
        Object.assign(new FighterIdentity(), {
          fighter,
          dateOfBirth: input.dateOfBirth,
          email: input.email,
          phone: input.phone,
          address: input.address,
        }),
      );
      if (input.applyForLicence) await this.newLicence(em, fighter, 'pending', {});
      audit(em, actor, 'fighters.register', fighter.slug);
      await changed({ refresh: { fighters: [fighter.id] } });
      return fighter;
    });
  }

  /**
   * Issues a licence: activates a pending application, or issues a new number (a renewal
   * supersedes the previous one). The fighter gets a fighter ID on first issue.
   */
  async issueLicence(actor: Actor, slug: string, input: IssueLicenceInput = {}, tx?: EntityManager): Promise<{ fighter: Fighter; licence: Licence }> {
    return this.uow.run(tx, async (em, changed) => {
      const fighter = await this.bySlug(em, slug);
      const issuedOn = input.issuedOn ?? this.clock.today();
      const validUntil = input.validUntil ?? addYears(issuedOn, 1);
      let licence = await em.findOne(Licence, { fighter, current: true });
      if (licence?.state === 'pending') {
        Object.assign(licence, { state: 'active', issuedOn, validUntil, verifiedAt: this.clock.now() });
      } else {
        if (licence) Object.assign(licence, { state: 'superseded', current: false });
        await em.flush();
        licence = await this.newLicence(em, fighter, 'active', { issuedOn, validUntil });
        licence.verifiedAt = this.clock.now();
      }
      if (!fighter.fighterCode) fighter.fighterCode = fighterCodeFor(await nextSequenceValue(em, 'fighter_code_seq'));
      fighter.status = 'licensed';
      audit(em, actor, 'licences.issue', slug, { licence_no: licence.licenceNo });
      await changed({ refresh: { fighters: [fighter.id] }, events: [{ type: 'licence.issued', licenceId: licence.id }] });
      return { fighter, licence };
    });
  }

  async suspendLicence(actor: Actor, slug: string, tx?: EntityManager): Promise<{ fighter: Fighter; licence: Licence }> {
    return this.uow.run(tx, async (em, changed) => {
      const fighter = await this.bySlug(em, slug);
      const licence = await em.findOne(Licence, { fighter, current: true });
      if (licence?.state !== 'active') throw new DomainError('invalid_state', `${slug} has no active licence to suspend`);
      licence.state = 'suspended';
      fighter.status = 'suspended';
      audit(em, actor, 'licences.suspend', slug, { licence_no: licence.licenceNo });
      await changed({ refresh: { fighters: [fighter.id] }, events: [{ type: 'licence.suspended', licenceId: licence.id }] });
      return { fighter, licence };
    });
  }

  async reinstateLicence(actor: Actor, slug: string, tx?: EntityManager): Promise<{ fighter: Fighter; licence: Licence }> {
    return this.uow.run(tx, async (em, changed) => {
      const fighter = await this.bySlug(em, slug);
      const licence = await em.findOne(Licence, { fighter, current: true });
      if (licence?.state !== 'suspended') throw new DomainError('invalid_state', `${slug} has no suspended licence`);
      licence.state = 'active';
      fighter.status = 'licensed';
      audit(em, actor, 'licences.reinstate', slug, { licence_no: licence.licenceNo });
      await changed({ refresh: { fighters: [fighter.id] } });
      return { fighter, licence };
    });
  }

  /** Withdraws the current licence: its number answers NO MATCHING RECORD from now on. */
  async revokeLicence(actor: Actor, slug: string, tx?: EntityManager): Promise<Fighter> {
    return this.uow.run(tx, async (em, changed) => {
      const fighter = await this.bySlug(em, slug);
      const licence = await em.findOne(Licence, { fighter, current: true });
      if (!licence) throw new DomainError('invalid_state', `${slug} has no licence to revoke`);
      Object.assign(licence, { state: 'revoked', current: false });
      fighter.status = 'applicant';
      audit(em, actor, 'licences.revoke', slug, { licence_no: licence.licenceNo });
      await changed({ refresh: { fighters: [fighter.id] } });
      return fighter;
    });
  }

  async issueCertificate(
    actor: Actor,
    slug: string,
    input: { kind?: string; state?: CertificateState; issuedOn?: string; validUntil?: string },
    tx?: EntityManager,
  ): Promise<Certificate> {
    return this.uow.run(tx, async (em, changed) => {
      const fighter = await this.bySlug(em, slug);
      const issuedOn = input.issuedOn ?? this.clock.today();
      const seq = await nextSequenceValue(em, 'certificate_no_seq');
      const certificate = Object.assign(new Certificate(), {
        fighter,
        kind: input.kind ?? 'medical',
        state: input.state ?? 'active',
        issuedOn,
        validUntil: input.validUntil ?? addYears(issuedOn, 1),
        certificateNo: certificateNoFor(Number(issuedOn.slice(0, 4)), seq),
      });
      em.persist(certificate);
      audit(em, actor, 'certificates.issue', slug, { certificate_no: certificate.certificateNo });
      await changed({ topics: ['catalog'] });
      return certificate;
    });
  }

  private async newLicence(em: EntityManager, fighter: Fighter, state: 'pending' | 'active', dates: IssueLicenceInput): Promise<Licence> {
    const seq = await nextSequenceValue(em, 'licence_no_seq');
    const year = Number((dates.issuedOn ?? this.clock.today()).slice(0, 4));
    const licence = Object.assign(new Licence(), {
      fighter,
      state,
      current: true,
      issuedOn: dates.issuedOn ?? null,
      validUntil: dates.validUntil ?? null,
      licenceNo: licenceNoFor(fighter.country.code, year, seq),
    });
    em.persist(licence);
    return licence;
  }

  private async bySlug(em: EntityManager, slug: string): Promise<Fighter> {
    const fighter = await em.findOne(Fighter, { slug }, { populate: ['country'] });
    if (!fighter) throw notFound(`fighter "${slug}"`);
    return fighter;
  }

  private async uniqueSlug(em: EntityManager, name: string): Promise<string> {
    const base = slugify(name);
    const taken = new Set(
      (await sql<{ slug: string }[]>(em, `select slug from fighter where slug = ? or slug like ?`, [base, `${base}-%`])).map((r) => r.slug),
    );
    for (const pending of em.getUnitOfWork().getPersistStack()) {
      if (pending instanceof Fighter) taken.add(pending.slug);
    }
    if (!taken.has(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  }
}
