// Postman collections of both OpenAPI documents (written by `npm run schema` into schema/postman/,
// linked from the README), made by openapi-to-postmanv2 from the published documents. Its
// output is made reproducible, so that a test can tell a stale file: the random values it fakes
// for parameters and bodies without an example come from a seeded generator, and the random ids
// of the collection and its items are left out (Postman makes its own on import), and times
// and closed-list parameters without an example get a fixed one (forConversion). The variables
// point at the demo: `baseUrl` on localhost:3000 and `bearerToken` a demo key.
import { baseUrl as serverUrl, DEMO_ORIGIN } from '../src/lib/openapi-code-samples';

const realRandom = Math.random;
/** What Math.random means inside the converter: its faker keeps the function it saw at load. */
let source: () => number = realRandom;
const indirect = () => source();

// openapi-to-postmanv2 ships no types. It is loaded with Math.random pointing here.
Math.random = indirect;
const Converter = require('openapi-to-postmanv2') as {
  convertV2(
    input: { type: 'json'; data: unknown },
    options: Record<string, unknown>,
    cb: (err: Error | null, res: { result: boolean; reason?: string; output: { data: Json }[] }) => void,
  ): void;
};
Math.random = realRandom;

type Json = Record<string, any>;

export const POSTMAN_OPTIONS = { folderStrategy: 'Tags', parametersResolution: 'Example', requestNameSource: 'Fallback', indentCharacter: 'Space' };

/** mulberry32: a small seeded generator standing in for Math.random while converting. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The document as given to the converter. Its faker dates a time without an example from today,
 * and picks any value of a closed list: times get a fixed example, and a parameter of a closed
 * list its first value (as the curl samples do), so that a filter such as `/rankings`'s names a
 * division that exists.
 */
function forConversion(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forConversion);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, forConversion(v)])) as Json;
  if (out.example === undefined && out.format === 'date-time') out.example = '2026-11-20T19:00:00Z';
  if (out.example === undefined && out.format === 'date') out.example = '2026-11-20';
  if (out.in && out.example === undefined && Array.isArray(out.schema?.enum)) out.example = out.schema.enum[0];
  return out;
}

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== 'id' && k !== '_postman_id')
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  }
  return node;
}

// One conversion at a time: Math.random is the process's own while it runs.
let queue: Promise<unknown> = Promise.resolve();

export function renderPostmanCollection(document: Json, key: string): Promise<string> {
  const run = queue.then(
    () =>
      new Promise<string>((resolve, reject) => {
        source = seeded(20261125);
        Math.random = indirect;
        Converter.convertV2({ type: 'json', data: forConversion(document) }, POSTMAN_OPTIONS, (err, res) => {
          Math.random = realRandom;
          source = realRandom;
          if (err || !res.result) {
            reject(err ?? new Error(`openapi-to-postmanv2: ${res.reason}`));
            return;
          }
          const collection = withoutIds(res.output[0].data) as Json;
          collection.variable = [
            { key: 'baseUrl', value: serverUrl(document, DEMO_ORIGIN), type: 'string' },
            { key: 'bearerToken', value: key, type: 'string', description: 'A demo key; use your own outside the demo.' },
          ];
          resolve(`${JSON.stringify(collection, null, 2)}\n`);
        });
      }),
  );
  queue = run.catch(() => undefined);
  return run;
}
