import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

export type DemoSeedState = 'started' | 'completed';

/**
 * The demo seed's completion marker: one row, written 'started' before the first demo row and
 * 'completed' after the last. A database whose marker says 'started' was killed mid-seed.
 */
@Entity()
export class DemoSeed {
  @PrimaryKey({ type: 'integer', autoincrement: false }) id: number = 1;
  @Property({ type: 'text' }) state!: DemoSeedState;
  @Property({ type: 'timestamptz' }) startedAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) completedAt: Date | null = null;
}
