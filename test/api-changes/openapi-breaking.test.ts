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
    '/streams': {
      post: {
        // A union of inline branches told apart by `source` (as the TV API's BroadcastCreate).
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { title: { type: 'string' } },
                oneOf: [
                  { type: 'object', required: ['source'], properties: { source: { type: 'string', enum: ['ingest'] } } },
                  {
                    type: 'object',
                    required: ['source', 'url'],
                    properties: { source: { type: 'string', enum: ['youtube', 'mp4'] }, url: { type: 'string' } },
                  },
                ],
              },
            },
          },
        },
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data'],
                  properties: { data: { oneOf: [{ $ref: '#/components/schemas/Profile' }, { $ref: '#/components/schemas/Minor' }] } },
                },
              },
            },
          },
        },
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
      Profile: { type: 'object', required: ['slug', 'name'], properties: { slug: { type: 'string' }, name: { type: 'string' } } },
      Minor: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Team: { type: 'object', required: ['team'], properties: { team: { type: 'string' } } },
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

  describe('oneOf and anyOf, as oasdiff classifies them', () => {
    const body = (d: Doc) => (d.paths as any)['/streams'].post.requestBody.content['application/json'].schema;
    const data = (d: Doc) => (d.paths as any)['/streams'].post.responses[200].content['application/json'].schema.properties.data;
    /** The same union written with anyOf. */
    const toAnyOf = (at: (d: Doc) => any) => (d: Doc) => {
      at(d).anyOf = at(d).oneOf;
      delete at(d).oneOf;
    };
    /** The changes from a prepared document to the same one edited. */
    const between = (prepare: (d: Doc) => void, edit: (d: Doc) => void) => {
      const before = base() as Doc;
      const after = base() as Doc;
      prepare(before);
      prepare(after);
      edit(after);
      return classifyOpenApi(before, after).map((c) => ({ level: c.level, id: c.id, where: c.where }));
    };

    it('a request branch removed is breaking; one added is not', () => {
      expect(
        changed((d) => {
          body(d).oneOf.shift();
        }),
      ).toEqual([
        {
          level: 'breaking',
          id: 'request-body-one-of-removed',
          operation: 'POST /api/v1/streams',
          where: 'body.oneOf[source=ingest]',
          names: ['POST /api/v1/streams'],
        },
      ]);
      expect(
        changed((d) => {
          body(d).oneOf.push({ type: 'object', required: ['source'], properties: { source: { type: 'string', enum: ['hls'] } } });
        }),
      ).toEqual([expect.objectContaining({ level: 'info', id: 'request-body-one-of-added', where: 'body.oneOf[source=hls]' })]);
      expect(
        between(toAnyOf(body), (d) => {
          body(d).anyOf.pop();
        }),
      ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-body-any-of-removed', where: 'body.anyOf[source=youtube|mp4]' })]);
    });

    it("a request branch narrowed is breaking: its discriminator's enum loses a value, or it gains a required property", () => {
      expect(
        changed((d) => {
          body(d).oneOf[1].properties.source.enum = ['youtube'];
        }),
      ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-enum-value-removed', where: 'body.oneOf[source=youtube|mp4].source: mp4' })]);
      expect(
        changed((d) => {
          body(d).oneOf[0].properties.region = { type: 'string' };
          body(d).oneOf[0].required.push('region');
        }),
      ).toEqual([expect.objectContaining({ level: 'breaking', id: 'request-required-property-added', where: 'body.oneOf[source=ingest].region' })]);
      // What the parent schema requires in both versions is required in every branch already.
      const unrequired = (d: Doc) => {
        body(d).oneOf[0].required = [];
      };
      const requireSource = (d: Doc) => {
        body(d).oneOf[0].required = ['source'];
      };
      expect(between(unrequired, requireSource)).toEqual([
        expect.objectContaining({ level: 'breaking', id: 'request-property-became-required', where: 'body.oneOf[source=ingest].source' }),
      ]);
      const parentRequires = (d: Doc) => {
        unrequired(d);
        body(d).required = ['source'];
      };
      expect(between(parentRequires, requireSource)).toEqual([]);
      // Widening a branch is not breaking.
      expect(
        changed((d) => {
          body(d).oneOf[1].properties.source.enum.push('vimeo');
        }),
      ).toEqual([expect.objectContaining({ level: 'info', id: 'request-enum-value-added' })]);
    });

    it('an answer branch added is breaking (a client switching on the variants meets a new one), named by its component; one removed is not', () => {
      expect(
        changed((d) => {
          data(d).oneOf.push({ $ref: '#/components/schemas/Team' });
        }),
      ).toEqual([
        {
          level: 'breaking',
          id: 'response-property-one-of-added',
          operation: 'POST /api/v1/streams',
          where: 'response 200.data.oneOf[Team]',
          names: ['POST /api/v1/streams', 'Team'],
        },
      ]);
      expect(
        changed((d) => {
          data(d).oneOf.pop();
        }),
      ).toEqual([expect.objectContaining({ level: 'info', id: 'response-property-one-of-removed', where: 'response 200.data.oneOf[Minor]' })]);
      expect(
        between(toAnyOf(data), (d) => {
          data(d).anyOf.push({ $ref: '#/components/schemas/Team' });
        }),
      ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-property-any-of-added', where: 'response 200.data.anyOf[Team]' })]);
    });

    it('inside an answer branch the property rules apply, named by the branch component; a null-only branch is nullability', () => {
      expect(
        changed((d) => {
          d.components.schemas.Minor.required = [];
        }),
      ).toEqual([
        {
          level: 'breaking',
          id: 'response-property-became-optional',
          operation: 'POST /api/v1/streams',
          where: 'response 200.data.oneOf[Minor].name',
          names: ['POST /api/v1/streams', 'Minor', 'Minor.name'],
        },
      ]);
      expect(
        changed((d) => {
          data(d).oneOf.push({ type: 'object', nullable: true, enum: [null] });
        }),
      ).toEqual([expect.objectContaining({ level: 'breaking', id: 'response-property-became-nullable', where: 'response 200.data' })]);
    });
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
