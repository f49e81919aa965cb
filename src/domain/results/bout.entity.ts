import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { SportEvent } from '../events/event.entity';
import { Fighter } from '../fighters/fighter.entities';
import { Division } from '../reference/reference.entities';

/** a: fighterA won, b: fighterB won. */
export type BoutOutcome = 'a' | 'b' | 'draw' | 'nc';

/** A bout is recorded, then verified; only verified bouts yield results and points. */
@Entity()
@Unique({ properties: ['event', 'order'] })
@Index({ properties: ['fighterA'] })
@Index({ properties: ['fighterB'] })
export class Bout {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @ManyToOne(() => SportEvent) event!: SportEvent;
  @Property({ type: 'integer' }) order!: number;
  @ManyToOne(() => Division) division!: Division;
  @ManyToOne(() => Fighter) fighterA!: Fighter;
  @ManyToOne(() => Fighter) fighterB!: Fighter;
  @Property({ type: 'text' }) outcome!: BoutOutcome;
  @Property({ type: 'text', nullable: true }) method: string | null = null;
  @Property({ type: 'integer', nullable: true }) round: number | null = null;
  @Property({ type: 'timestamptz' }) recordedAt: Date = new Date();
  @Property({ type: 'timestamptz', nullable: true }) verifiedAt: Date | null = null;
}
