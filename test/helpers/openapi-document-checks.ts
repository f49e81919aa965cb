/**
 * What every checked-in OpenAPI document of the service must be, whichever API it describes
 * (partner API: test/openapi/partner-openapi.test.ts, TV API: test/openapi/tv-openapi.test.ts):
 * valid OpenAPI 3.0.3, deterministic, and the same as its file under schema/.
 *
 *   describe('TV OpenAPI document', () => {
 *     itIsAValidCheckedInDocument({ build: buildTvOpenApi, render: renderTvOpenApi, ... });
 *   });
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * @seriousme/openapi-schema-validator is ESM-only and jest (CommonJS here) cannot load it in-process
 * on Node 20, so it runs in a child Node process that reads the document on stdin.
 */
export function validateWithSchemaValidator(doc: unknown): { valid: boolean; errors?: unknown; version?: string } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const validator = new Validator();
    const res = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ ...res, version: validator.version }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify(doc),
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The methods a Path Item documents (its other keys are `summary`, `description`, ...). */
export const methodsOf = (item: Record<string, unknown>): string[] => Object.keys(item).filter((key) => HTTP_METHODS.includes(key));

export interface CheckedInDocument {
  build: () => Record<string, unknown>;
  render: () => string;
  /** The checked-in file, relative to the repository root (`schema/openapi.json`). */
  schemaFile: string;
  title: string;
  version: string;
  /** The one server URL, which is also the API's base path. */
  basePath: string;
}

/** Registers, inside a `describe`, the tests every checked-in OpenAPI document must pass. */
export function itIsAValidCheckedInDocument(document: CheckedInDocument): void {
  it('is a valid OpenAPI 3.0.3 document', () => {
    const doc = document.build() as any;
    const res = validateWithSchemaValidator(doc);
    expect(res.errors).toBeUndefined();
    expect(res.valid).toBe(true);
    expect(res.version).toBe('3.0');
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe(document.version);
    expect(doc.info.title).toBe(document.title);
    // absolute servers (issue 17: generated clients need a working base URL): the demo's, then any
    // deployment's with the host as a variable; both end with the API's base path
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([`http://localhost:3000${document.basePath}`, `{scheme}://{host}${document.basePath}`]);
    expect(doc.servers[1].variables.host.default).toBe('localhost:3000');
  });

  it('is deterministic', () => {
    expect(document.render()).toBe(document.render());
    expect(JSON.parse(document.render())).toEqual(document.build());
  });

  it(`is checked in up to date as ${document.schemaFile}`, () => {
    const file = join(ROOT, document.schemaFile);
    const onDisk = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (onDisk !== document.render()) {
      throw new Error(`${document.schemaFile} is stale or missing: run \`npm run schema\` and commit the result`);
    }
  });
}
