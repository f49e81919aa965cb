import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Country } from '../reference/reference.entities';
import type { EVENT_LEVELS } from '../reference/vocabulary';
import type { EVENT_STATUSES } from '../reference/vocabulary';

export type EventLevel = (typeof EVENT_LEVELS)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];

@Entity({ tableName: 'event' })
@Index({ properties: ['date'] })
export class SportEvent {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'text' }) code!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text', nullable: true }) city: string | null = null;
  @ManyToOne(() => Country) country!: Country;
  @Property({ type: 'date' }) date!: string;
  @Property({ type: 'text', nullable: true }) level: EventLevel | null = null;
  @Property({ type: 'text' }) status: EventStatus = 'scheduled';
  /** Only sanctioned events are served to partners. */
  @Property({ type: 'timestamptz', nullable: true }) sanctionedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
