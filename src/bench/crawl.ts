/**
 * The bench's crawls (`npm run bench -- --crawl`, `bench:pipeline -- --crawl`): a partner walking
 * every fighter profile, or every page of the results feed, each URL once, so that nothing it
 * asks for has been kept. The URLs come from the database itself, in a fixed order.
 */
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';

export type CrawlKind = 'profiles' | 'results';

export const CRAWL_KINDS: readonly CrawlKind[] = ['profiles', 'results'];

/** The feed's page size in the crawl: the default, as a partner that does not choose sends. */
export const CRAWL_PER_PAGE = 25;

/** Rows of a query on the bench's database. */
export type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/**
 * Every profile (shuffled by a hash of the slug, so the crawl jumps about the table as many
 * crawlers would), or every page of the feed (in an order that jumps about it too).
 */
export async function crawlPaths(kind: CrawlKind, query: Query): Promise<string[]> {
  if (kind === 'profiles') {
    const rows = await query(`select slug from fighter_card order by md5(slug)`);
    return rows.map((r) => `/api/v1/fighters/${encodeURIComponent(String(r.slug))}`);
  }
  const [{ n }] = await query(`select count(*)::int as n from result_row where adult_on <= current_date`);
  const pages = Math.max(1, Math.ceil(Number(n) / CRAWL_PER_PAGE));
  const order = Array.from({ length: pages }, (_, i) => i + 1).sort((a, b) => ((a * 7919) % 10007) - ((b * 7919) % 10007) || a - b);
  return order.map((page) => `/api/v1/results?page=${page}&per_page=${CRAWL_PER_PAGE}`);
}

/** The crawl's URLs read over a connection of its own, written one a line to `file` (wrk's Lua reads them). */
export async function writeCrawlFile(kind: CrawlKind, databaseUrl: string, file: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const paths = await crawlPaths(kind, async (sql) => (await client.query(sql)).rows as Array<Record<string, unknown>>);
    writeFileSync(file, `${paths.join('\n')}\n`);
    return paths;
  } finally {
    await client.end();
  }
}

/** wrk's Lua for a crawl: each request takes the next URL of CRAWL_FILE from CRAWL_START, CRAWL_COUNT of them; any past those repeat one (counted). */
export const CRAWL_LUA = `
paths, first, count, sent, repeats = {}, 0, 0, 0, 0
local file = os.getenv("CRAWL_FILE")
if file and file ~= "" then
  for line in io.lines(file) do paths[#paths + 1] = line end
  first = tonumber(os.getenv("CRAWL_START")) or 0
  count = tonumber(os.getenv("CRAWL_COUNT")) or #paths
  request = function()
    if sent >= count then repeats = repeats + 1 end
    local path = paths[first + (sent % count) + 1]
    sent = sent + 1
    return wrk.format(nil, path)
  end
end
threads = {}
setup = function(thread) table.insert(threads, thread) end
`;
