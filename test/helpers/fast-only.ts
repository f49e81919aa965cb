import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath } from '../../src/http/send-json';

/**
 * A handler that runs only a fast path: what it hands over to express is answered 599, so
 * hand-overs are visible. `atOnce` records, request by request, whether the fast path answered
 * synchronously (returned true rather than a promise); tests reset it as they need.
 */
export function fastOnly(fast: FastPath): { handler: (req: IncomingMessage, res: ServerResponse) => void; atOnce: boolean[] } {
  const atOnce: boolean[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const handled = fast(req, res);
    atOnce.push(handled === true);
    void Promise.resolve(handled).then((done) => {
      if (!done) {
        res.statusCode = 599;
        res.end();
      }
    });
  };
  return { handler, atOnce };
}
