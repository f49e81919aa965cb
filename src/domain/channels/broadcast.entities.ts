import { randomUUID } from 'node:crypto';
import { ArrayType, Entity, Index, ManyToOne, OneToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Channel } from './channel.entities';

export const SOURCES = ['youtube', 'vimeo', 'hls', 'mp4', 'ingest'] as const;
export type Source = (typeof SOURCES)[number];
export const VISIBILITIES = ['public', 'unlisted', 'followers', 'ppv'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export type BroadcastState = 'scheduled' | 'live' | 'ended' | 'replay';

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
  @Property({ type: 'text', nullable: true }) discipline: string | null = null;
  @Property({ type: 'text' }) language: string = 'en';
  @Property({ type: ArrayType }) tags: string[] = [];
  @Property({ type: 'text', nullable: true }) replayUrl: string | null = null;
  /** SHA-256 of the stream key; the key itself is shown once and never stored. */
  @Unique() @Property({ type: 'text', nullable: true, hidden: true }) streamKeyHash: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
}

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
