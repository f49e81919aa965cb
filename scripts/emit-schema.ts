// Writes schema/openapi.json, the OpenAPI 3.0.3 document of the partner API (`npm run schema`).
// A test (test/openapi/partner-openapi.test.ts) fails when the checked-in file is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderPartnerOpenApi } from '../src/rest/openapi.document';

export const OPENAPI_SCHEMA_PATH = join(__dirname, '..', 'schema', 'openapi.json');

export function emitPartnerOpenApi(file: string = OPENAPI_SCHEMA_PATH): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderPartnerOpenApi());
  return file;
}

if (require.main === module) {
  const file = emitPartnerOpenApi();
  console.log(`wrote ${file}`);
}
