import { execFileSync } from 'node:child_process';
import { baseUrl, withCodeSamples } from './openapi-code-samples';

const doc = {
  openapi: '3.0.3',
  servers: [{ url: '/api/v1' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/fighters/{slug}': {
      get: {
        parameters: [
          { $ref: '#/components/parameters/Slug' },
          { name: 'page', in: 'query', schema: { type: 'integer', default: 1 } },
          { name: 'q', in: 'query', example: "o'neil" },
        ],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/public': { get: { security: [], responses: { 204: { description: 'none' } } } },
    '/keyed': { get: { security: [{ apiKey: [] }], responses: { 200: { description: 'ok' } } } },
    '/broadcasts': {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } } },
        responses: { 201: { description: 'made', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
  components: {
    parameters: { Slug: { name: 'slug', in: 'path', required: true, schema: { type: 'string' }, example: 'anna schmidt' } },
    schemas: {
      Create: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string', example: "Rock 'n' roll night" }, tags: { type: 'array', items: { type: 'string', example: 'finals' } } },
      },
    },
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  },
};

const samples = (out: any, path: string, method: string) => Object.fromEntries(out.paths[path][method]['x-codeSamples'].map((s: any) => [s.label, s.source]));

describe('withCodeSamples', () => {
  const out = withCodeSamples(doc, { key: 'pk_demo_full', origin: 'http://localhost:3000' });

  it('leaves its input alone and adds curl and Node samples to every operation', () => {
    expect((doc.paths['/public'].get as any)['x-codeSamples']).toBeUndefined();
    for (const [path, method] of [
      ['/fighters/{slug}', 'get'],
      ['/public', 'get'],
      ['/keyed', 'get'],
      ['/broadcasts', 'post'],
    ]) {
      expect(out.paths[path as '/public'][method as 'get']['x-codeSamples' as never]).toEqual([
        { lang: 'Shell', label: 'curl', source: expect.any(String) },
        { lang: 'JavaScript', label: 'Node.js', source: expect.any(String) },
      ]);
    }
  });

  it('fills path parameters and the query parameters that have examples, on the server URL, with the key the security asks for', () => {
    const s = samples(out, '/fighters/{slug}', 'get');
    expect(s.curl).toBe(`curl "http://localhost:3000/api/v1/fighters/anna%20schmidt?q=o%27neil" \\\n  -H "Authorization: Bearer pk_demo_full"`);
    expect(s['Node.js']).toContain(
      `const res = await fetch('http://localhost:3000/api/v1/fighters/anna%20schmidt?q=o%27neil', {\n  headers: { Authorization: 'Bearer pk_demo_full' },\n});`,
    );
    expect(s['Node.js']).toContain('console.log(res.status, await res.json());');
    expect(samples(out, '/keyed', 'get').curl).toContain('-H "X-API-Key: pk_demo_full"');
    const pub = samples(out, '/public', 'get');
    expect(pub.curl).toBe('curl "http://localhost:3000/api/v1/public"');
    expect(pub['Node.js']).toContain("const res = await fetch('http://localhost:3000/api/v1/public');\nconsole.log(res.status);");
  });

  it("sends a body made from the schema's examples, quoted so that a shell passes it unchanged", () => {
    const s = samples(out, '/broadcasts', 'post');
    expect(s.curl).toContain('curl -X POST "http://localhost:3000/api/v1/broadcasts"');
    const dataArgument = s.curl
      .split('\n')
      .find((l: string) => l.trim().startsWith('-d '))!
      .trim()
      .slice(3);
    const echoed = execFileSync('sh', ['-c', `printf %s ${dataArgument}`], { encoding: 'utf8' });
    expect(JSON.parse(echoed)).toEqual({ title: "Rock 'n' roll night", tags: ['finals'] });
    expect(s['Node.js']).toContain("method: 'POST'");
    expect(s['Node.js']).toContain("'Content-Type': 'application/json'");
  });

  it('takes an absolute server with variables at their defaults, and a relative one on the origin', () => {
    expect(baseUrl({ servers: [{ url: 'https://{host}/api/tv', variables: { host: { default: 'tv.example.org' } } }] }, 'http://x')).toBe(
      'https://tv.example.org/api/tv',
    );
    expect(baseUrl({ servers: [{ url: '/api/tv' }] }, 'http://localhost:3000/')).toBe('http://localhost:3000/api/tv');
    expect(baseUrl({}, 'http://localhost:3000')).toBe('http://localhost:3000');
  });
});
