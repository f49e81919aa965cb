/**
 * The bench's baseline: a bare node:http server that answers every request with one fixed body
 * (the bytes of a /api/v1/rankings response) and its content type. It runs as its own process,
 * forked by bench.ts, so it shares the cores with the load generator the same way the service does.
 *
 * Protocol (IPC): the parent sends { body, contentType }; the child answers { port } once listening.
 */
import { createServer } from 'node:http';

interface Setup {
  body: string;
  contentType: string;
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
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
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
