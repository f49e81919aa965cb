import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OneToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Country, Division } from '../reference/reference.entities';
import type { FIGHTER_STATUSES } from '../reference/vocabulary';

export type FighterStatus = (typeof FIGHTER_STATUSES)[number];
/** superseded (renewed) and revoked numbers answer NO MATCHING RECORD on /verify. */
export type LicenceState = 'pending' | 'active' | 'suspended' | 'superseded' | 'revoked';
export type CertificateState = 'pending' | 'active' | 'suspended' | 'revoked';

/** The public profile. Identity and contact data live in FighterIdentity, which no presenter reads. */
@Entity()
export class Fighter {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
  /** Lower-case, accent-free name and nickname, for case- and accent-insensitive search. */
  @Index() @Property({ type: 'text' }) searchText!: string;
  /** The folded name: lists order by it (under the C collation) so every database agrees. */
  @Property({ type: 'text' }) sortName!: string;
  @Property({ type: 'text', nullable: true }) nickname: string | null = null;
  @ManyToOne(() => Country) country!: Country;
  @ManyToOne(() => Division) division!: Division;
  @Property({ type: 'text' }) status: FighterStatus = 'applicant';
  @Property({ type: 'boolean' }) rankingPublished: boolean = true;
  @Unique() @Property({ type: 'text', nullable: true }) fighterCode: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}

@Entity()
export class FighterIdentity {
  @OneToOne(() => Fighter, { primary: true, deleteRule: 'cascade' }) fighter!: Fighter;
  @Property({ type: 'date' }) dateOfBirth!: string;
  @Property({ type: 'text' }) email!: string;
  @Property({ type: 'text' }) phone!: string;
  @Property({ type: 'text' }) address!: string;
}

@Entity()
@Index({ properties: ['fighter', 'current'] })
export class Licence {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Fighter) fighter!: Fighter;
  @Unique() @Property({ type: 'text' }) licenceNo!: string;
  @Property({ type: 'text' }) state: LicenceState = 'pending';
  /** The one licence that speaks for the fighter; false once superseded or revoked. */
  @Property({ type: 'boolean' }) current: boolean = true;
  @Property({ type: 'date', nullable: true }) issuedOn: string | null = null;
  @Property({ type: 'date', nullable: true }) validUntil: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) verifiedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

@Entity()
export class Certificate {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Fighter) fighter!: Fighter;
  @Unique() @Property({ type: 'text' }) certificateNo!: string;
  @Property({ type: 'text' }) kind: string = 'medical';
  @Property({ type: 'text' }) state: CertificateState = 'pending';
  @Property({ type: 'date', nullable: true }) issuedOn: string | null = null;
  @Property({ type: 'date', nullable: true }) validUntil: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
