import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * deploy/nginx.conf passes WebSocket upgrades of /graphql (the studio's subscriptions) to the API
 * instances: HTTP/1.1 upstream, the client's Upgrade header and "Connection: upgrade" forwarded, and
 * a read time-out longer than the server's 12 s ping, so an idle subscription is never cut.
 */

const conf = readFileSync(join(__dirname, '..', '..', 'deploy', 'nginx.conf'), 'utf8').replace(/#.*$/gm, '');

function block(header: RegExp): string {
  const m = header.exec(conf);
  if (!m) throw new Error(`deploy/nginx.conf has no block ${header}`);
  let depth = 0;
  for (let i = m.index + m[0].length - 1; i < conf.length; i++) {
    if (conf[i] === '{') depth++;
    if (conf[i] === '}' && --depth === 0) return conf.slice(m.index, i + 1);
  }
  throw new Error(`unbalanced block ${header}`);
}

const directives = (text: string) =>
  text
    .split(';')
    .map((d) => d.replace(/[{}]/g, ' ').replace(/\s+/g, ' ').trim())
    .filter(Boolean);

describe('deploy/nginx.conf', () => {
  it('maps an Upgrade request to "Connection: upgrade" and anything else to no Connection header', () => {
    const map = directives(block(/map \$http_upgrade \$connection_upgrade \{/));
    expect(map).toEqual(['map $http_upgrade $connection_upgrade default upgrade', "'' ''"]);
  });

  it('proxies /graphql with HTTP/1.1, the Upgrade and Connection headers and a read time-out above the 12 s ping', () => {
    const graphql = directives(block(/location = \/graphql \{/));
    expect(graphql).toEqual(
      expect.arrayContaining([
        'location = /graphql proxy_pass $api',
        'proxy_http_version 1.1',
        'proxy_set_header Upgrade $http_upgrade',
        'proxy_set_header Connection $connection_upgrade',
        'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for',
      ]),
    );
    const timeout = graphql.find((d) => d.startsWith('proxy_read_timeout '));
    expect(timeout).toBeDefined();
    expect(Number(/(\d+)s$/.exec(timeout!)?.[1])).toBeGreaterThan(12);
  });
});
