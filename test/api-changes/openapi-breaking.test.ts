import { classifyOpenApi } from '../../scripts/openapi-breaking';

/** The classifier's rules, each on a small document changed in one way. */

const base = () => ({
  openapi: '3.0.3',
  servers: [{ url: '/api/v1' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/events': {
      get: {
        'x-required-scope': 'events.read',
        parameters: [{ $ref: '#/components/parameters/Level' }, { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Event' } } } },
              },
            },
          },
          404: { description: 'no', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
    '/broadcasts': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } } },
        responses: { 201: { description: 'made' } },
      },
    },
  },
  components: {
    parameters: { Level: { name: 'level', in: 'query', required: false, schema: { type: 'string', enum: ['national', 'world'] } } },
    schemas: {
      Event: {
        type: 'object',
        required: ['code', 'status'],
        properties: {
          code: { type: 'string' },
          status: { type: 'string', enum: ['scheduled', 'live'] },
          city: { type: 'string', nullable: true },
          url: { type: 'string' },
        },
      },
      Create: {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string', maxLength: 140 }, tags: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
});

type Doc = ReturnType<typeof base> & Record<string, any>;

function changed(edit: (d: Doc) => void) {
  const after = base() as Doc;
  edit(after);
  return classifyOpenApi(base(), after).map((c) => ({ level: c.level, id: c.id, operation: c.operation, where: c.where, names: c.names }));
}

describe('the OpenAPI breaking-change classifier', () => {
  it('finds nothing between equal documents, and ignores prose, examples and extensions it does not know', () => {
    expect(changed(() => undefined)).toEqual([]);
    expect(
      changed((d) => {
        (d.paths['/events'].get as any).description = 'new words';
        (d.paths['/events'].get as any)['x-codeSamples'] = [{ lang: 'Shell', source: 'curl' }];
        (d.components.schemas.Event.properties.code as any).example = 'EV-1';
        d.servers = [{ url: 'https://{host}/api/v1', variables: { host: { default: 'api.example.org' } } } as any];
      }),
    ).toEqual([]);
  });

  it('a removed operation or path is breaking; an added one is not', () => {
    expect(
      changed((d) => {
        delete (d.paths as any)['/events'];
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'api-path-removed', operation: 'GET /api/v1/events' })]);
    expect(
      changed((d) => {
        (d.paths as any)['/me'] = { get: { responses: { 200: { description: 'ok' } } } };
      }),
    ).toEqual([expect.objectContaining({ level: 'info', id: 'api-added', operation: 'GET /api/v1/me' })]);
  });

  it('in answers: a removed or now-optional required property, a new null or type are breaking, named by operation, schema and property', () => {
    expect(
      changed((d) => {
        delete (d.components.schemas.Event.properties as any).code;
        d.components.schemas.Event.required = ['status'];
      }),
    ).toEqual([
      {
        level: 'breaking',
        id: 'response-required-property-removed',
        operation: 'GET /api/v1/events',
        where: 'response 200.data[].code',
        names: ['GET /api/v1/events', 'Event', 'Event.code'],
      },
    ]);
    expect(
      changed((d) => {
        d.components.schemas.Event.required = ['code'];
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-property-became-optional' })]);
    expect(
      changed((d) => {
        (d.components.schemas.Event.properties.code as any).nullable = true;
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-property-became-nullable' })]);
    expect(
      changed((d) => {
        d.components.schemas.Event.properties.code = { type: 'integer' } as any;
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-type-changed' })]);
    expect(
      changed((d) => {
        delete (d.components.schemas.Event.properties as any).url;
      }),
    ).toEqual([expect.objectContaining({ level: 'warning', id: 'response-optional-property-removed' })]);
  });

  it('in answers: a new enum value is a warning, a new property or a removed value is not breaking', () => {
    expect(
      changed((d) => {
        d.components.schemas.Event.properties.status.enum.push('ended');
      }),
    ).toEqual([expect.objectContaining({ level: 'warning', id: 'response-enum-value-added', where: 'response 200.data[].status: ended' })]);
    expect(
      changed((d) => {
        d.components.schemas.Event.properties.status.enum.pop();
      }),
    ).toEqual([expect.objectContaining({ level: 'info' })]);
    expect(
      changed((d) => {
        (d.components.schemas.Event.properties as any).country = { type: 'string' };
      }),
    ).toEqual([expect.objectContaining({ level: 'info', id: 'response-property-added' })]);
  });

  it('in requests: a new required parameter or property, a parameter made required, a narrower enum or limit are breaking; wider ones are not', () => {
    expect(
      changed((d) => {
        (d.paths['/events'].get.parameters as any[]).push({ name: 'since', in: 'query', required: true, schema: { type: 'string' } });
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'new-required-request-parameter', where: 'query since' })]);
    expect(
      changed((d) => {
        (d.components.parameters.Level as any).required = true;
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-parameter-became-required' })]);
    expect(
      changed((d) => {
        d.components.parameters.Level.schema.enum = ['world'];
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-enum-value-removed', where: 'query level: national' })]);
    expect(
      changed((d) => {
        d.components.parameters.Level.schema.enum.push('continental');
      }),
    ).toEqual([expect.objectContaining({ level: 'info' })]);
    expect(
      changed((d) => {
        d.components.schemas.Create.properties.title.maxLength = 100;
      }),
    ).toEqual([
      expect.objectContaining({ level: 'breaking', id: 'request-maxLength-tightened', names: ['POST /api/v1/broadcasts', 'Create', 'Create.title'] }),
    ]);
    expect(
      changed((d) => {
        d.components.schemas.Create.properties.title.maxLength = 200;
      }),
    ).toEqual([]);
    expect(
      changed((d) => {
        d.components.schemas.Create.required = ['title', 'tags'];
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-property-became-required' })]);
    expect(
      changed((d) => {
        (d.components.schemas.Create.properties as any).source = { type: 'string' };
        d.components.schemas.Create.required.push('source');
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-required-property-added' })]);
    expect(
      changed((d) => {
        (d.paths['/events'].get.parameters as any[]).push({ name: 'q', in: 'query', schema: { type: 'string' } });
      }),
    ).toEqual([expect.objectContaining({ level: 'info' })]);
  });

  it('a removed success status, a changed scope or security, and a moved base path are breaking', () => {
    expect(
      changed((d) => {
        delete (d.paths['/broadcasts'].post.responses as any)[201];
        (d.paths['/broadcasts'].post.responses as any)[200] = { description: 'ok' };
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-status-removed', where: 'response 201' })]);
    expect(
      changed((d) => {
        d.paths['/events'].get['x-required-scope'] = 'results.read';
      }),
    ).toEqual([expect.objectContaining({ level: 'breaking', id: 'security-changed' })]);
    expect(
      changed((d) => {
        d.servers = [{ url: '/api/v2' }];
      }),
    ).toContainEqual(expect.objectContaining({ level: 'breaking', id: 'api-base-path-changed', names: ['servers'] }));
  });
});
