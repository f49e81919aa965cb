import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { POSTMAN_COLLECTIONS, POSTMAN_DIR } from '../../scripts/emit-schema';
import { renderPostmanCollection } from '../../scripts/postman-collections';

/** schema/postman/ holds the collections `npm run schema` makes from today's documents. */

test.each(POSTMAN_COLLECTIONS.map((c) => [c.file, c] as const))(
  'schema/postman/%s is up to date (run npm run schema when this fails)',
  async (file, c) => {
    const rendered = await renderPostmanCollection(JSON.parse(c.render()), c.key);
    const onDisk = readFileSync(join(POSTMAN_DIR, file), 'utf8');
    if (onDisk !== rendered) throw new Error(`schema/postman/${file} is stale: run \`npm run schema\` and commit the result`);
    const collection = JSON.parse(onDisk);
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.variable).toEqual([
      expect.objectContaining({ key: 'baseUrl', value: expect.stringMatching(/^http:\/\/localhost:3000\/api\/(v1|tv)$/) }),
      expect.objectContaining({ key: 'bearerToken', value: c.key }),
    ]);
  },
  60_000,
);

test('a collection is the same however often it is made (no ids, no dates from today, no unseeded random values)', async () => {
  const c = POSTMAN_COLLECTIONS[0];
  const [a, b] = await Promise.all([renderPostmanCollection(JSON.parse(c.render()), c.key), renderPostmanCollection(JSON.parse(c.render()), c.key)]);
  expect(a).toBe(b);
  expect(a).not.toMatch(/"(id|_postman_id)":/);
}, 60_000);
