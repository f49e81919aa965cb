import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, PrimaryKeyProp, Property, Unique } from '@mikro-orm/core';
import { Fighter } from '../fighters/fighter.entities';
import { Division } from '../reference/reference.entities';

/** A published ranking run, stored whole; reads serve the latest one. */
@Entity()
export class RankingRun {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Unique() @Property({ type: 'date' }) asOf!: string;
  @Property({ type: 'timestamptz' }) publishedAt: Date = new Date();
}

/** One row of a run's tables, identified by its run, division, scope and fighter (docs/adr/0009). */
@Entity()
export class RankingEntry {
  // Derived data with no foreign key (a trigger on ranking_run deletes a run's rows with it):
  // docs/adr/0009-ranking-publication-at-scale.md.
  @ManyToOne(() => RankingRun, { primary: true, createForeignKeyConstraint: false }) run!: RankingRun;
  @ManyToOne(() => Division, { primary: true, createForeignKeyConstraint: false }) division!: Division;
  /** 'world', a continent slug or a country slug. */
  @PrimaryKey({ type: 'text' }) scope!: string;
  @ManyToOne(() => Fighter, { primary: true, createForeignKeyConstraint: false }) fighter!: Fighter;
  [PrimaryKeyProp]?: ['run', 'division', 'scope', 'fighter'];
  @Property({ type: 'integer' }) rank!: number;
  /** Order within the division and scope: rank, then the tie order of the engine (by name). */
  @Property({ type: 'integer' }) position!: number;
  @Property({ type: 'double' }) points!: number;
  @Property({ type: 'integer', nullable: true }) previousRank: number | null = null;
  @Property({ type: 'integer', nullable: true }) movement: number | null = null;
  @Property({ type: 'json' }) record!: { W: number; L: number; D: number; NC: number; KO: number };
}
