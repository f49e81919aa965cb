import { buildPartnerOpenApi } from '../../src/rest/openapi.document';
import { PARTNER_OPERATIONS } from '../../src/rest/partner-api.door';
import partnerExamples from '../../src/rest/examples.json';
import { buildTvOpenApi } from '../../src/tv/openapi-tv.document';
import { TV_OPERATIONS } from '../../src/tv/tv-api.door';
import tvExamples from '../../src/tv/examples.json';
import { createOpenApiValidator } from '../helpers/openapi.validator';

/**
 * The documents' examples are real answers of the demo (scripts/capture-examples.ts), so a
 * reference shows partners real fighters, events and broadcasts rather than `"scope": "string"`:
 * every operation but the document itself has one, on its success answer, and it conforms to the
 * document as any answer must.
 */
const doors = [
  {
    name: 'partner',
    base: '/api/v1',
    ops: PARTNER_OPERATIONS,
    examples: partnerExamples as Record<string, { request: string; status: number; body: unknown }>,
    doc: buildPartnerOpenApi(),
  },
  {
    name: 'tv',
    base: '/api/tv',
    ops: TV_OPERATIONS,
    examples: tvExamples as Record<string, { request: string; status: number; body: unknown }>,
    doc: buildTvOpenApi(),
  },
];

describe.each(doors)("the $name document's examples", ({ base, ops, examples, doc }) => {
  const validator = createOpenApiValidator(doc, base);
  const described = ops.filter((op) => op.path !== '/openapi.json');

  it.each(described.map((op) => [op.doc.operationId, op]))('%s has a real example answer that conforms to the document', (id, op) => {
    const example = examples[id];
    expect(example).toBeDefined();
    expect(validator.validate(op.method, `${base}${example.request.split('?')[0]}`, example.status, example.body)).toEqual([]);
    const paths = (doc as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> }).paths;
    expect(paths[op.path][op.method.toLowerCase()].responses[String(example.status)].content?.['application/json'].example).toEqual(example.body);
  });

  it.each(described.filter((op) => op.path.includes('{')).map((op) => [op.doc.operationId, op]))(
    "%s: its example answers the request its path example names (the samples' request)",
    (id, op) => {
      // The path with each parameter's example, as the samples send it.
      const params = (op.params ?? {}) as Record<string, { example?: unknown }>;
      const filled = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name]?.example));
      expect(examples[id].request.split('?')[0]).toBe(filled);
    },
  );
});
