// Captures the documents' response examples from a running demo (`npm start`, or any instance
// seeded with the demo data): `node -r @swc-node/register scripts/capture-examples.ts [BASE_URL]`
// (default http://localhost:3000), then `npm run schema`. It asks each operation what a partner
// or a channel would ask, with the demo keys, keeps two items of every list, and writes
// src/rest/examples.json and src/tv/examples.json (by operationId), which the documents show as
// the success answers' examples. An operation on a path asks for the record its path example names
// (src/demo/demo-records.ts), so each answer shown is the answer to the sample beside it. It
// creates a broadcast, and edits, starts and ends the demo channel's documented one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_RECORDS } from '../src/demo/demo-records';

const BASE = process.argv[2] ?? 'http://localhost:3000';
type Json = Record<string, any>;
interface Example {
  request: string;
  status: number;
  body: unknown;
}

async function call(method: string, path: string, key: string | null, body?: unknown): Promise<Example> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as Json;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return { request: path.replace(/^\/api\/(v1|tv)/, ''), status: res.status, body: trim(json) };
}

/** Two items of every list, and a `count` that says so. */
function trim(value: unknown): any {
  if (Array.isArray(value)) return value.slice(0, 2).map(trim);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v)]));
  if (typeof out.count === 'number' && Array.isArray(out.data)) out.count = out.data.length;
  return out;
}

async function partner(): Promise<Record<string, Example>> {
  const key = 'pk_demo_full';
  const get = (path: string) => call('GET', `/api/v1${path}`, key);
  return {
    getRanking: await get('/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg'),
    listDivisions: await get('/divisions'),
    listFighters: await get('/fighters?q=mu&per_page=2'),
    getFighter: await get(`/fighters/${DEMO_RECORDS.fighterSlug}`),
    listEvents: await get('/events?upcoming=1&per_page=2'),
    getEvent: await get(`/events/${DEMO_RECORDS.eventCode}`),
    listEventResults: await get(`/events/${DEMO_RECORDS.eventCode}/results`),
    listResults: await get('/results?per_page=2'),
    verifyNumber: await get(`/verify/${DEMO_RECORDS.fighterId}`),
    getKeyInfo: await get('/me'),
  };
}

async function tv(): Promise<Record<string, Example>> {
  const rw = 'ck_demo_rw';
  const get = (path: string, key: string | null = null) => call('GET', `/api/tv${path}`, key);
  const id = DEMO_RECORDS.broadcastId;
  const upcoming = await get('/upcoming?per_page=2');
  const getBroadcast = await get(`/broadcasts/${DEMO_RECORDS.broadcastSlug}`);
  const ingest = await call('POST', '/api/tv/broadcasts', rw, { title: 'Gym session, ring 2', source: 'ingest', scheduled_at: '2030-11-21T18:00:00+01:00' });
  const updated = await call('PATCH', `/api/tv/broadcasts/${id}`, rw, { title: 'Title Fight (Pay-per-view): main event' });
  const live = await call('POST', `/api/tv/broadcasts/${id}/go-live`, rw);
  const health = await get(`/broadcasts/${id}/health`, 'ck_demo_ro');
  const ended = await call('POST', `/api/tv/broadcasts/${id}/end`, rw);
  return {
    listLiveBroadcasts: await get('/live?per_page=2'),
    listUpcomingBroadcasts: upcoming,
    listChannels: await get('/channels?per_page=2'),
    getChannel: await get(`/channels/${DEMO_RECORDS.channelSlug}`),
    getBroadcast,
    updateBroadcast: updated,
    getChannelAccount: await get('/me', 'ck_demo_ro'),
    createBroadcast: ingest,
    goLive: live,
    endBroadcast: ended,
    rotateStreamKey: await call('POST', `/api/tv/broadcasts/${id}/rotate-stream-key`, rw),
    getBroadcastHealth: health,
  };
}

async function main(): Promise<void> {
  const root = join(__dirname, '..');
  for (const [file, examples] of [
    ['src/rest/examples.json', await partner()],
    ['src/tv/examples.json', await tv()],
  ] as const) {
    writeFileSync(join(root, file), `${JSON.stringify(examples, null, 2)}\n`);
    console.log(`wrote ${file} (${Object.keys(examples).length} operations)`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
