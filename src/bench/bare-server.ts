/**
 * The bench's baseline: a bare node:http server that answers every request with one fixed body
 * (the bytes of a /api/v1/rankings response) and its content type. It runs as its own process,
 * forked by bench.ts, so it shares the cores with the load generator the same way the service does.
 *
 * Protocol (IPC): the parent sends { body, contentType, bodies? }; the child answers { port } once
 * listening. `bodies` maps other paths to other bytes, so that every target of the bench can be
 * compared with a bare server answering exactly its own bytes.
 */
import { createServer } from 'node:http';

interface Setup {
  body: string;
  contentType: string;
  bodies?: Record<string, { body: string; contentType: string }>;
}

function isSetup(m: unknown): m is Setup {
  return typeof m === 'object' && m !== null && typeof (m as Setup).body === 'string' && typeof (m as Setup).contentType === 'string';
}

process.once('message', (message: unknown) => {
  if (!isSetup(message)) {
    process.stderr.write('bare-server: expected { body, contentType } from the parent\n');
    process.exit(2);
  }
  const body = Buffer.from(message.body, 'utf8');
  const headers = { 'Content-Type': message.contentType, 'Content-Length': String(body.length) };
  const others = new Map(Object.entries(message.bodies ?? {}).map(([path, b]) => {
    const bytes = Buffer.from(b.body, 'utf8');
    return [path, { bytes, headers: { 'Content-Type': b.contentType, 'Content-Length': String(bytes.length) } }];
  }));
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
