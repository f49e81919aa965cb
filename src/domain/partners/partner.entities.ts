import { randomUUID } from 'node:crypto';
import { ArrayType, BigIntType, Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';

export type PartnerStatus = 'active' | 'suspended';
export const PARTNER_SCOPES = ['rankings.read', 'fighters.read', 'events.read', 'results.read'] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

@Entity()
export class Partner {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) status: PartnerStatus = 'active';
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

/** Only the SHA-256 of a key is stored, with a short prefix for display. */
@Entity()
export class ApiKey {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Partner) partner!: Partner;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) prefix!: string;
  @Unique() @Property({ type: 'text' }) hash!: string;
  @Property({ type: ArrayType }) scopes: string[] = [];
  @Property({ type: 'integer' }) rateLimitPerMinute: number = 60;
  @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: new BigIntType('number') }) requestCount: number = 0;
  @Property({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
