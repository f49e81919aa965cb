/**
 * The bench's baseline: a bare node:http server that answers every request with one fixed body
 * (the bytes of a /api/v1/rankings response) and its content type. It runs as its own process,
 * forked by bench.ts, so it shares the cores with the load generator the same way the service does.
 *
 * Protocol (IPC): the parent sends { body (base64), contentType, contentEncoding, bodies? }; the
 * child answers { port } once listening. `bodies` maps other paths to other bytes, so that every
 * target of the bench can be compared with a bare server answering exactly its own bytes (gzip
 * bytes with their Content-Encoding when the service sent those).
 */
import { createServer } from 'node:http';

interface Sent {
  body: string;
  contentType: string;
  contentEncoding: string | null;
  /** The service's headers as it sent them (name, value, ...): sent instead of the body's own three. */
  headers?: string[];
}

interface Setup extends Sent {
  bodies?: Record<string, Sent>;
}

function isSetup(m: unknown): m is Setup {
  return typeof m === 'object' && m !== null && typeof (m as Setup).body === 'string' && typeof (m as Setup).contentType === 'string';
}

process.once('message', (message: unknown) => {
  if (!isSetup(message)) {
    process.stderr.write('bare-server: expected { body, contentType } from the parent\n');
    process.exit(2);
  }
  const prepare = (b: Sent) => {
    const bytes = Buffer.from(b.body, 'base64');
    if (b.headers) return { bytes, headers: b.headers };
    const headers: Record<string, string> = { 'Content-Type': b.contentType, 'Content-Length': String(bytes.length) };
    if (b.contentEncoding) headers['Content-Encoding'] = b.contentEncoding;
    return { bytes, headers };
  };
  const { bytes: body, headers } = prepare(message);
  const others = new Map(Object.entries(message.bodies ?? {}).map(([path, b]) => [path, prepare(b)]));
  const server = createServer((req, res) => {
    const other = others.get(req.url ?? '');
    res.writeHead(200, other ? other.headers : headers);
    res.end(other ? other.bytes : body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.send?.({ port });
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The parent went away without stopping us: do not linger.
  process.on('disconnect', () => process.exit(0));
});
