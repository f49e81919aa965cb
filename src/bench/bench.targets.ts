/** What `npm run bench` loads: every partner read, the TV schedules and the studio dashboard. */
import type { CrawlKind } from './crawl';

export type ServerName = 'service' | 'bare';

export interface Target {
  /** Shown in the table; BENCH_TARGETS selects by it. */
  name: string;
  server: ServerName;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Extra request headers (content-type of a POST body, ...). */
  headers?: Record<string, string>;
  /** Send the partner demo key (default: true on the service). */
  auth?: boolean;
  /** Send a studio session of the demo owner instead (GraphQL). */
  session?: boolean;
  /** A crawl: every URL of this kind once, from a file (wrk), instead of `path` again and again; `path` is its first URL. */
  crawl?: CrawlKind;
  /** Sanity check of the one preflight response: return a complaint, or undefined when fine. */
  check?: (body: string) => string | undefined;
}

/** Real subjects of the bench's database, found through the API before loading. */
export interface Subjects {
  fighterSlug: string;
  fighterCode: string;
  eventCode: string;
}

export const RANKINGS_PATH = '/api/v1/rankings?disc=kickboxing&cat=pro&g=m&wc=67kg';
export const BARE = 'bare node:http';
export const DASHBOARD_QUERY = `query($slug: String!) { channel(slug: $slug) { slug plan billingState liveSlots { used total }
  broadcasts(first: 50) { edges { node { id title state source health { signal bitrateKbps viewers warnings { code } } } } }
  apiKeys { id name prefix scopes }
  webhookEndpoints { id url enabled deliveries(first: 10) { id status attempts { attemptNo statusCode durationMs } } } } }`;

/**
 * The goals for every partner GET, measured as production runs (wrk, the access log on): a share
 * of the rate of a bare server sending the same bytes (a higher one for /rankings, the hottest
 * read; issue 20), and p99.
 */
export const GOALS = { minRatio: 0.5, rankingsMinRatio: 0.6, maxP99Ms: 25, crawlMinReqPerSec: 5000 } as const;

const dataArray =
  (min: number) =>
  (body: string): string | undefined => {
    const parsed = JSON.parse(body) as { data?: unknown };
    if (!Array.isArray(parsed.data)) return 'the body has no "data" array';
    return parsed.data.length >= min ? undefined : `expected at least ${min} rows in "data", got ${parsed.data.length}`;
  };
const hasData = (body: string) => ((JSON.parse(body) as { data?: unknown }).data ? undefined : 'the body has no "data"');
const verified = (body: string) => ((JSON.parse(body) as { status?: string }).status ? undefined : 'no verification status');

/** Partner targets are named by their path; `partner: true` rows are held to GOALS. */
export function benchTargets(s: Subjects): (Target & { partner: boolean })[] {
  const p = (name: string, path: string, check?: Target['check']) => ({ name, server: 'service' as const, path: `/api/v1${path}`, check, partner: true });
  return [
    { name: BARE, server: 'bare', path: '/', auth: false, partner: false },
    { ...p('/rankings', RANKINGS_PATH.replace('/api/v1', ''), dataArray(1)) },
    p('/divisions', '/divisions', dataArray(1)),
    p('/fighters?q=mu', '/fighters?q=mu', dataArray(1)),
    p('/fighters?q=son', '/fighters?q=son', dataArray(1)),
    p('/fighters/{slug}', `/fighters/${encodeURIComponent(s.fighterSlug)}`, hasData),
    p('/events', '/events', dataArray(1)),
    p('/events/{code}/results', `/events/${encodeURIComponent(s.eventCode)}/results`, dataArray(1)),
    p('/results', '/results?per_page=25', dataArray(1)),
    p('/verify/{number}', `/verify/${encodeURIComponent(s.fighterCode)}`, verified),
    p('/me', '/me', hasData),
    { name: '/api/tv/live', server: 'service', path: '/api/tv/live', auth: false, check: dataArray(1), partner: false },
    { name: '/api/tv/upcoming', server: 'service', path: '/api/tv/upcoming', auth: false, check: dataArray(1), partner: false },
    {
      name: 'graphql dashboard',
      server: 'service',
      path: '/graphql',
      method: 'POST',
      session: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: DASHBOARD_QUERY, variables: { slug: 'demo-tv' } }),
      check: (b) => (JSON.parse(b).errors ? `errors: ${b.slice(0, 200)}` : undefined),
      partner: false,
    },
  ];
}

/** Finds a licensed adult fighter with a fighter ID and an event with results, through the API. */
export async function findSubjects(baseUrl: string, key: string): Promise<Subjects> {
  const get = async (path: string) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as { data: any[] };
  };
  const results = await get('/results?per_page=1');
  const fighters = await get('/fighters?status=licensed&per_page=1');
  const fighter = fighters.data[0];
  if (!results.data[0] || !fighter?.fighter_code) throw new Error('the database has no verified results or no licensed fighter: seed it first');
  return { fighterSlug: fighter.slug, fighterCode: fighter.fighter_code, eventCode: results.data[0].event.code };
}

/** `--crawl`: the bare server, and each crawl (held to GOALS.crawlMinReqPerSec and the p99 goal beside its bare twin). */
export function crawlTargets(firstPaths: Record<CrawlKind, string>): (Target & { partner: boolean })[] {
  return [
    { name: BARE, server: 'bare', path: '/', auth: false, partner: false },
    { name: 'crawl /fighters/{slug}', server: 'service', path: firstPaths.profiles, crawl: 'profiles', check: hasData, partner: true },
    { name: 'crawl /results?page=N', server: 'service', path: firstPaths.results, crawl: 'results', check: dataArray(1), partner: true },
  ];
}
