import { randomUUID } from 'node:crypto';
import { ArrayType, Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';

export const PLANS = ['free', 'pro', 'broadcaster'] as const;
export type Plan = (typeof PLANS)[number];
export const BILLING_STATES = ['active', 'trialing', 'past_due', 'canceled'] as const;
export type BillingState = (typeof BILLING_STATES)[number];
/** Live slots per plan (docs/decisions.md#go-live). */
export const LIVE_SLOTS: Record<Plan, number> = { free: 1, pro: 3, broadcaster: 10 };

@Entity()
export class Channel {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
  /** Unapproved channels are never listed publicly. */
  @Property({ type: 'timestamptz', nullable: true }) approvedAt: Date | null = null;
  @Property({ type: 'text' }) plan: Plan = 'free';
  @Property({ type: 'text' }) billingState: BillingState = 'active';
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

/** A person who signs in to the studio. */
@Entity()
export class StudioUser {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) email!: string;
  @Property({ type: 'text', hidden: true }) passwordHash!: string;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

export const ROLES = ['owner', 'manager', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

@Entity()
@Unique({ properties: ['channel', 'user'] })
export class ChannelMember {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Channel) channel!: Channel;
  @ManyToOne(() => StudioUser) user!: StudioUser;
  @Property({ type: 'text' }) role!: Role;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}

export const CHANNEL_SCOPES = ['read', 'broadcasts:write'] as const;
export type ChannelScope = (typeof CHANNEL_SCOPES)[number];
export const isChannelScope = (s: string): s is ChannelScope => (CHANNEL_SCOPES as readonly string[]).includes(s);

/** Channel API keys for automation on /api/tv; only the hash is stored. */
@Entity()
export class ChannelApiKey {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => Channel) channel!: Channel;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) prefix!: string;
  @Unique() @Property({ type: 'text' }) hash!: string;
  @Property({ type: ArrayType }) scopes: ChannelScope[] = [];
  @Property({ type: 'uuid', nullable: true }) createdBy: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
