import type { StatementCount } from './statements';
import { BARE, GOALS } from './bench.targets';

export interface Row {
  name: string;
  url: string;
  bytes: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Held to GOALS (a partner GET). */
  partner: boolean;
  statements?: StatementCount;
  /** req/s of the bare server answering this target's own bytes, measured right after it. */
  bareSameBytes?: number;
  /** p99 of that bare server: what the machine alone gives for these bytes. */
  bareSameBytesP99?: number;
  /** CPU time (user + system) the service spent per request, in µs. */
  cpuUsPerReq?: number;
  /** The same for the bare server answering the same bytes. */
  bareCpuUsPerReq?: number;
  /** A crawl: requests that repeated one of its URLs. */
  repeats?: number;
}

const fmtStatements = (s: StatementCount | undefined) => (s ? `${s.warm % 1 ? s.warm.toFixed(1) : s.warm}/${s.cold}` : '');

/**
 * The table: req/s, latency, ratio to the bare server answering the /rankings bytes and to one
 * answering the target's own bytes (bodies range from 0.3 to 60 KB), SQL statements per request.
 */
export function table(rows: Row[]): string {
  const bare = rows.find((r) => r.name === BARE)?.reqPerSec;
  const head = [
    'target',
    'req/s',
    'vs bare',
    'bare same B',
    'vs same',
    'CPU µs',
    'bare CPU µs',
    'p50 ms',
    'p99 ms',
    'bare p99',
    'max ms',
    'SQL warm/cold',
    'non-2xx',
    'errors',
    'body B',
    'goal',
  ];
  const cells = rows.map((r) => [
    r.name,
    r.reqPerSec.toFixed(0),
    bare ? `${((r.reqPerSec / bare) * 100).toFixed(1)}%` : '',
    r.bareSameBytes ? r.bareSameBytes.toFixed(0) : '',
    r.bareSameBytes ? `${((r.reqPerSec / r.bareSameBytes) * 100).toFixed(1)}%` : '',
    r.cpuUsPerReq !== undefined ? r.cpuUsPerReq.toFixed(1) : '',
    r.bareCpuUsPerReq !== undefined ? r.bareCpuUsPerReq.toFixed(1) : '',
    r.p50Ms.toFixed(0),
    r.p99Ms.toFixed(0),
    r.bareSameBytesP99 !== undefined ? r.bareSameBytesP99.toFixed(0) : '',
    r.maxMs.toFixed(0),
    fmtStatements(r.statements),
    String(r.non2xx),
    r.timeouts ? `${r.errors} (${r.timeouts} timeouts)` : String(r.errors),
    String(r.bytes),
    r.partner && bare ? (meetsGoals(r, bare) ? 'met' : 'NOT met') : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const fmt = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}

/** Against the bare server answering the same bytes when it was measured, else the /rankings bytes. */
export function meetsGoals(r: Row, bareReqPerSec: number): boolean {
  if (r.name.startsWith('crawl ')) return r.reqPerSec >= GOALS.crawlMinReqPerSec && r.p99Ms < GOALS.maxP99Ms;
  const minRatio = r.name === '/rankings' ? GOALS.rankingsMinRatio : GOALS.minRatio;
  return r.reqPerSec / (r.bareSameBytes ?? bareReqPerSec) >= minRatio && r.p99Ms < GOALS.maxP99Ms;
}

/** The verdict lines under the table. */
export function verdictLines(rows: Row[], connections: number): string[] {
  const bare = rows.find((r) => r.name === BARE)?.reqPerSec;
  const partner = rows.filter((r) => r.partner);
  if (!bare || partner.length === 0) return [];
  const missed = partner.filter((r) => !meetsGoals(r, bare));
  const goal = `>= ${GOALS.minRatio * 100}% of bare (same bytes; /rankings ${GOALS.rankingsMinRatio * 100}%; crawls >= ${GOALS.crawlMinReqPerSec} req/s) and p99 < ${GOALS.maxP99Ms} ms at ${connections} connections`;
  if (!missed.length) return [`partner GETs (${goal}): met by all ${partner.length}`];
  return [`partner GETs (${goal}): NOT met by ${missed.map((r) => r.name).join(', ')}`, ...missed.map((r) => `  ${missReason(r, bare)}`)];
}

/** What a missed target lacks, and whether a bare server sending the same bytes does better. */
function missReason(r: Row, bare: number): string {
  if (r.name.startsWith('crawl '))
    return `${r.name}: ${r.reqPerSec.toFixed(0)} req/s, p99 ${r.p99Ms.toFixed(0)} ms (bare twin ${r.bareSameBytes?.toFixed(0) ?? '?'} req/s)`;
  const base = r.bareSameBytes ?? bare;
  const ratio = `${((r.reqPerSec / base) * 100).toFixed(1)}% of bare`;
  const p99 = `p99 ${r.p99Ms.toFixed(0)} ms`;
  const machine =
    r.bareSameBytesP99 !== undefined && r.bareSameBytesP99 >= GOALS.maxP99Ms
      ? `; the bare server sending the same ${r.bytes} bytes has p99 ${r.bareSameBytesP99.toFixed(0)} ms itself (the machine's limit for them)`
      : '';
  return `${r.name}: ${ratio}, ${p99}${machine}`;
}
