import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { StudioUser } from '../channels/channel.entities';

/** A studio sign-in: only the token's SHA-256 is stored; valid 12 hours (docs/decisions.md#studio-sign-in). */
@Entity()
@Index({ properties: ['user'] })
export class StudioSession {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => StudioUser) user!: StudioUser;
  @Unique() @Property({ type: 'text', hidden: true }) tokenHash!: string;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz' }) expiresAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) endedAt: Date | null = null;
}
