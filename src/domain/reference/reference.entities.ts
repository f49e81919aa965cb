import { Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp, Property, Unique } from '@mikro-orm/core';

@Entity()
export class Continent {
  [PrimaryKeyProp]?: 'slug';
  @PrimaryKey({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
}

@Entity()
export class Country {
  [PrimaryKeyProp]?: 'slug';
  @PrimaryKey({ type: 'text' }) slug!: string;
  @Property({ type: 'text' }) name!: string;
  @Unique() @Property({ type: 'text' }) code!: string;
  @ManyToOne(() => Continent) continent!: Continent;
}

/** A division is discipline x category x gender x weight class; `id` is its readable key. */
@Entity()
@Index({ properties: ['discipline', 'category', 'gender', 'sortOrder'] })
export class Division {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Property({ type: 'text' }) discipline!: string;
  @Property({ type: 'text' }) category!: string;
  @Property({ type: 'text' }) gender!: string;
  @Property({ type: 'text' }) weightClass!: string;
  @Property({ type: 'text' }) label!: string;
  @Property({ type: 'integer' }) sortOrder!: number;
}
