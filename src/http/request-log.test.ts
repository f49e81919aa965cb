import { Writable } from 'node:stream';
import { createLogger } from '../lib/logger';
import { doorOf, pathOf, RequestLog } from './request-log';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = new RequestLog(createLogger('info', sink), null);
  return { log, lines };
}

describe('RequestLog', () => {
  it('writes the record pino would write, escaping whatever JSON escapes', () => {
    const { log, lines } = capture();
    const odd = ['/api/v1/fighters/é"\\x', '/api/v1/fighters/a\tb', '/api/v1/fighters/plain-slug', '/api/v1/x\u2028'];
    for (const path of odd) {
      log.record({
        method: 'GET',
        url: `${path}?q=secret#frag`,
        route: '/api/v1/fighters/:slug',
        status: 200,
        started: process.hrtime.bigint(),
        reqId: 'id"1\\',
      });
    }
    log.record({ method: 'M"\\', url: '/nowhere', route: null, status: 404, started: process.hrtime.bigint(), reqId: undefined });
    const records = lines
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.path)).toEqual([...odd, '/nowhere']);
    expect(records[0]).toMatchObject({
      level: 30,
      req_id: 'id"1\\',
      door: 'partner',
      method: 'GET',
      route: '/api/v1/fighters/:slug',
      status: 200,
      msg: 'request',
    });
    expect(records[4]).toMatchObject({ method: 'M"\\', route: null, status: 404, door: 'other' });
    expect(records[4]).not.toHaveProperty('req_id');
    expect(lines.join('')).not.toContain('secret');
    expect(Object.keys(records[0])).toEqual(['level', 'time', 'req_id', 'door', 'method', 'path', 'route', 'status', 'ms', 'msg']);
  });

  it('cuts the path at the query or the fragment, whichever comes first', () => {
    expect(pathOf('/a/b?x=1#y')).toBe('/a/b');
    expect(pathOf('/a/b#y?x=1')).toBe('/a/b');
    expect(pathOf('/a/b')).toBe('/a/b');
    expect(pathOf('/a?')).toBe('/a');
  });

  it('finds the door by its mount', () => {
    expect(doorOf('/api/v1').door).toBe('partner');
    expect(doorOf('/api/v1/me').door).toBe('partner');
    expect(doorOf('/api/v10').door).toBe('other');
    expect(doorOf('/api/tv/live').door).toBe('tv');
    expect(doorOf('/graphql').door).toBe('studio');
    expect(doorOf('/internal/ingest/x').door).toBe('ingest');
    expect(doorOf('/healthz').door).toBe('ops');
  });
});
