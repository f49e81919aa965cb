import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** Who changed what, when: written in the same transaction as the change. */
@Entity()
@Index({ properties: ['at'] })
export class AuditEntry {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text' }) actor!: string;
  @Property({ type: 'text' }) action!: string;
  @Property({ type: 'text', nullable: true }) subject: string | null = null;
  @Property({ type: 'json', nullable: true }) data: Record<string, unknown> | null = null;
  @Property({ type: 'timestamptz' }) at: Date = new Date();
}
