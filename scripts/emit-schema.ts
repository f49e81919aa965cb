// Writes the OpenAPI 3.0.3 documents (`npm run schema`): schema/openapi.json (partner API,
// `/api/v1`) and schema/openapi-tv.json (TV API, `/api/tv`). Tests
// (test/openapi/partner-openapi.test.ts, test/openapi/tv-openapi.test.ts) fail when a checked-in
// file is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderPartnerOpenApi } from '../src/rest/openapi.document';
import { renderStudioSdl } from '../src/graphql/schema';
import { renderTvOpenApi } from '../src/tv/openapi-tv.document';

export const OPENAPI_SCHEMA_PATH = join(__dirname, '..', 'schema', 'openapi.json');
export const TV_OPENAPI_SCHEMA_PATH = join(__dirname, '..', 'schema', 'openapi-tv.json');
export const STUDIO_SDL_PATH = join(__dirname, '..', 'schema', 'studio.graphql');

function emit(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

export function emitPartnerOpenApi(file: string = OPENAPI_SCHEMA_PATH): string {
  return emit(file, renderPartnerOpenApi());
}

export function emitTvOpenApi(file: string = TV_OPENAPI_SCHEMA_PATH): string {
  return emit(file, renderTvOpenApi());
}

export function emitStudioSdl(file: string = STUDIO_SDL_PATH): string {
  return emit(file, renderStudioSdl());
}

if (require.main === module) {
  for (const file of [emitPartnerOpenApi(), emitTvOpenApi(), emitStudioSdl()]) console.log(`wrote ${file}`);
}
