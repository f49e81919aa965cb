import type { IncomingMessage, ServerResponse } from 'node:http';

export type SeedPhase = 'waiting' | 'reference' | 'partners' | 'channels' | 'fighters' | 'events' | 'bouts' | 'rankings' | 'finishing';

export interface SeedingProgress {
  phase: SeedPhase;
  done: number;
  total: number;
  /** What done and total count when it is not the phase's rows: the scale data set's 'copies'. */
  unit?: string;
}

/** Receives the seed's progress: a phase and how far through it. */
export type SeedProgressListener = (progress: SeedingProgress) => void;

/**
 * Whether the process may serve yet. The server listens before it seeds the demo data; until
 * the seed completes, /healthz says so, /readyz answers 503 and every other request answers
 * 503 not_ready (half-seeded data is never served).
 */
export class StartupState {
  private current: SeedingProgress | null;

  constructor(seeding: boolean) {
    this.current = seeding ? { phase: 'waiting', done: 0, total: 0 } : null;
  }

  get ready(): boolean {
    return this.current === null;
  }

  /** null once ready. */
  get seeding(): SeedingProgress | null {
    return this.current && { ...this.current };
  }

  readonly progress: SeedProgressListener = (p) => {
    if (this.current) this.current = { ...p };
  };

  markReady(): void {
    this.current = null;
  }
}

export function describeSeeding(p: SeedingProgress): string {
  if (p.phase === 'waiting') return 'waiting for the database';
  return p.total > 0 ? `${p.phase} ${p.done}/${p.total}${p.unit ? ` ${p.unit}` : ''}` : p.phase;
}

const RETRY_AFTER_SECONDS = 5;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * Answers every request while the process is not ready; returns false (and leaves the request
 * alone) once it is.
 */
export function startupGate(state: StartupState): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const seeding = state.seeding;
    if (!seeding) return false;
    const path = (req.url ?? '/').split('?')[0];
    const message = `seeding the demo data: ${describeSeeding(seeding)}`;
    if (path === '/healthz') {
      sendJson(res, 200, { status: 'ok', seeding });
    } else if (path === '/readyz') {
      sendJson(res, 503, { error: 'not_ready', message, seeding }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    } else {
      sendJson(
        res,
        503,
        { error: 'not_ready', message: `the service is starting (${message}); retry shortly` },
        { 'retry-after': String(RETRY_AFTER_SECONDS) },
      );
    }
    return true;
  };
}
