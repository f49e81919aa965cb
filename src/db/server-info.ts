import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * While `npm start` serves the embedded database, it records its socket here so that the
 * operator's command line and `npm run worker` reach the same database (docs/decisions.md#operator).
 */
function infoPath(dataDir: string): string {
  return join(resolve(dataDir), 'server.json');
}

export function writeServerInfo(dataDir: string, info: { port: number; pid: number }): void {
  writeFileSync(infoPath(dataDir), JSON.stringify(info));
}

export function removeServerInfo(dataDir: string): void {
  rmSync(infoPath(dataDir), { force: true });
}

/** The running server's embedded database URL, or null when no server is running. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const path = infoPath(dataDir);
  if (!existsSync(path)) return null;
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as { port: number; pid: number };
    process.kill(info.pid, 0);
    return `postgres://postgres@127.0.0.1:${info.port}/postgres`;
  } catch {
    return null;
  }
}
