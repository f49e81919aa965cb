// Writes the OpenAPI 3.0.3 documents (`npm run schema`): schema/openapi.json (partner API,
// `/api/v1`) and schema/openapi-tv.json (TV API, `/api/tv`), the studio SDL, and the Postman
// collections made from both documents (schema/postman/, scripts/postman-collections.ts), and the
// AsyncAPI 3.0 document of the webhook events (schema/webhooks.asyncapi.json, from the event
// catalog). Tests (test/openapi/partner-openapi.test.ts, test/openapi/tv-openapi.test.ts,
// test/openapi/webhooks-asyncapi.test.ts) fail when a checked-in
// file is stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderPartnerOpenApi } from '../src/rest/openapi.document';
import { renderStudioSdl } from '../src/graphql/schema';
import { renderTvOpenApi } from '../src/tv/openapi-tv.document';
import { DEMO_KEYS } from '../src/demo/demo-keys';
import { DEMO_CHANNEL_KEYS } from '../src/demo/demo-tv.seed';
import { renderWebhooksAsyncApi, withEventsTable } from '../src/webhooks/webhooks.asyncapi';
import { renderPostmanCollection } from './postman-collections';

export const OPENAPI_SCHEMA_PATH = join(__dirname, '..', 'schema', 'openapi.json');
export const TV_OPENAPI_SCHEMA_PATH = join(__dirname, '..', 'schema', 'openapi-tv.json');
export const STUDIO_SDL_PATH = join(__dirname, '..', 'schema', 'studio.graphql');
export const WEBHOOKS_ASYNCAPI_PATH = join(__dirname, '..', 'schema', 'webhooks.asyncapi.json');
export const WEBHOOKS_DOC_PATH = join(__dirname, '..', 'docs', 'webhooks.md');
export const POSTMAN_DIR = join(__dirname, '..', 'schema', 'postman');

/** The Postman collections: file name, the document's text, the demo key their requests send. */
export const POSTMAN_COLLECTIONS = [
  { file: 'partner-api.postman_collection.json', render: renderPartnerOpenApi, key: DEMO_KEYS[0].token },
  { file: 'tv-api.postman_collection.json', render: renderTvOpenApi, key: DEMO_CHANNEL_KEYS[0].token },
];

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

export function emitWebhooksAsyncApi(file: string = WEBHOOKS_ASYNCAPI_PATH): string {
  return emit(file, renderWebhooksAsyncApi());
}

/** The events table of docs/webhooks.md (between its markers), from the event catalog. */
export function emitWebhookEventsTable(file: string = WEBHOOKS_DOC_PATH): string {
  return emit(file, withEventsTable(readFileSync(file, 'utf8')));
}

export async function emitPostmanCollections(dir: string = POSTMAN_DIR): Promise<string[]> {
  const files: string[] = [];
  for (const c of POSTMAN_COLLECTIONS) files.push(emit(join(dir, c.file), await renderPostmanCollection(JSON.parse(c.render()), c.key)));
  return files;
}

if (require.main === module) {
  for (const file of [emitPartnerOpenApi(), emitTvOpenApi(), emitStudioSdl(), emitWebhooksAsyncApi(), emitWebhookEventsTable()]) console.log(`wrote ${file}`);
  emitPostmanCollections().then(
    (files) => {
      for (const file of files) console.log(`wrote ${file}`);
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
