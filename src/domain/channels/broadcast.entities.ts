import { randomUUID } from 'node:crypto';
import { ArrayType, Entity, Index, ManyToOne, OneToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { Discipline } from '../reference/vocabulary';
import { Channel } from './channel.entities';

export const SOURCES = ['youtube', 'vimeo', 'hls', 'mp4', 'ingest'] as const;
export type Source = (typeof SOURCES)[number];
export const VISIBILITIES = ['public', 'unlisted', 'followers', 'ppv'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const BROADCAST_STATES = ['scheduled', 'live', 'ended', 'replay'] as const;
export type BroadcastState = (typeof BROADCAST_STATES)[number];

/** What a broadcast's fields may hold, for the doors that validate them and the TV document. */
export const BROADCAST_TITLE_MAX = 140;
export const BROADCAST_TAGS_MAX = 10;
export const BROADCAST_TAG_PATTERN = '^[a-z0-9-]{1,32}$';
export const BROADCAST_LANGUAGE_PATTERN = '^[a-z]{2}$';

@Entity()
@Index({ properties: ['state', 'scheduledAt'] })
@Index({ properties: ['channel', 'state'] })
export class Broadcast {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) slug!: string;
  @ManyToOne(() => Channel) channel!: Channel;
  @Property({ type: 'text' }) title!: string;
  @Property({ type: 'text' }) source!: Source;
  @Property({ type: 'text', nullable: true }) sourceUrl: string | null = null;
  @Property({ type: 'timestamptz' }) scheduledAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) startedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endedAt: Date | null = null;
  @Property({ type: 'text' }) state: BroadcastState = 'scheduled';
  @Property({ type: 'text' }) visibility: Visibility = 'public';
  @Property({ type: 'text', nullable: true }) discipline: Discipline | null = null;
  @Property({ type: 'text' }) language: string = 'en';
  @Property({ type: ArrayType }) tags: string[] = [];
  @Property({ type: 'text', nullable: true }) replayUrl: string | null = null;
  /** SHA-256 of the stream key; the key itself is shown once and never stored. */
  @Unique() @Property({ type: 'text', nullable: true, hidden: true }) streamKeyHash: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}

/**
 * A broadcast as the domain hands it to a door: the entity's public fields and its channel's slug
 * and name. A loaded entity is one; a read that bypasses the ORM builds one. Each door maps it to
 * its own wire shape once (the TV API's snake_case view, the studio's GraphQL object).
 */
export type BroadcastRecord = Pick<
  Broadcast,
  | 'id'
  | 'slug'
  | 'title'
  | 'source'
  | 'sourceUrl'
  | 'scheduledAt'
  | 'startedAt'
  | 'endedAt'
  | 'state'
  | 'visibility'
  | 'discipline'
  | 'language'
  | 'tags'
  | 'replayUrl'
  | 'createdAt'
  | 'updatedAt'
> & { channel: Pick<Channel, 'slug' | 'name'> };

/** The latest report of the media server about an ingest broadcast. */
@Entity()
export class BroadcastTelemetry {
  @OneToOne(() => Broadcast, { primary: true, deleteRule: 'cascade' }) broadcast!: Broadcast;
  /** Between on_publish and on_publish_done. */
  @Property({ type: 'boolean' }) publishing: boolean = false;
  @Property({ type: 'integer', nullable: true }) bitrateKbps: number | null = null;
  @Property({ type: 'text', nullable: true }) resolution: string | null = null;
  @Property({ type: 'double', nullable: true }) fps: number | null = null;
  @Property({ type: 'integer', nullable: true }) viewers: number | null = null;
  @Property({ type: 'timestamptz' }) reportedAt: Date = new Date();
}
