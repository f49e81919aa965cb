import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * docker-compose.yml is valid for Docker Compose: `docker compose config -q` parses, merges the
 * anchors and checks the file against the Compose specification. It needs the docker CLI with its
 * compose plugin, not a running engine; without them the test is skipped, saying so.
 */

const ROOT = join(__dirname, '..', '..');
const compose = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
const available = compose.status === 0;
if (!available) {
  const why = compose.error ? 'no docker CLI on the PATH' : `"docker compose version" failed: ${(compose.stderr || compose.stdout).trim()}`;
  console.warn(`compose.test: skipped, ${why} (install the docker CLI and its compose plugin to run it)`);
}
const describeWithCompose = available ? describe : describe.skip;

describeWithCompose('docker-compose.yml', () => {
  test('is a valid Compose file', () => {
    expect(() => execFileSync('docker', ['compose', '-f', join(ROOT, 'docker-compose.yml'), 'config', '-q'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });

  test('builds one image, used by every app service, each with a restart policy and a healthcheck', () => {
    const config = JSON.parse(
      execFileSync('docker', ['compose', '-f', join(ROOT, 'docker-compose.yml'), 'config', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' }),
    );
    const services = config.services as Record<string, Record<string, any>>;
    expect(Object.values(services).filter((s) => s.build)).toHaveLength(1);
    for (const name of ['api1', 'api2', 'worker']) expect(services[name].image).toBe(services.api1.image);
    for (const [name, s] of Object.entries(services)) {
      expect([name, s.restart]).toEqual([name, 'unless-stopped']);
      expect([name, Array.isArray(s.healthcheck?.test)]).toEqual([name, true]);
    }
  });
});
