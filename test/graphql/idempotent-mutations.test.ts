import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { IDEMPOTENT_MUTATIONS } from '../../src/graphql/idempotent-mutations';

/**
 * The checked-in SDL says which mutations take `Idempotency-Key`: exactly the ones the middleware
 * applies it to (src/graphql/idempotent-mutations.ts), and the Mutation type names them all.
 */
const sdl = buildSchema(readFileSync(join(__dirname, '../../schema/studio.graphql'), 'utf8'));
const mutation = sdl.getMutationType()!;

test('every mutation that takes Idempotency-Key says so, and no other does', () => {
  const saying = Object.values(mutation.getFields())
    .filter((f) => f.description?.includes('`Idempotency-Key` HTTP header'))
    .map((f) => f.name)
    .sort();
  expect(saying).toEqual([...IDEMPOTENT_MUTATIONS].sort());
});

test('the Mutation type names each of them', () => {
  for (const name of IDEMPOTENT_MUTATIONS) expect(mutation.description).toContain(`\`${name}\``);
  expect(mutation.description).toContain('`Idempotency-Key` HTTP header');
});
