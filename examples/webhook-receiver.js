// A partner's webhook receiver, in plain Node: verify, answer 2xx at once, process afterwards.
//   WEBHOOK_SECRET=whsec_... PORT=4500 node examples/webhook-receiver.js
const { createHmac, timingSafeEqual } = require('node:crypto');
const { createServer } = require('node:http');

const TOLERANCE_SECONDS = 300;

/** true when the delivery was signed with `secret` less than 5 minutes ago. */
function verifyWebhook(secret, rawBody, headers, nowSeconds = Math.floor(Date.now() / 1000)) {
  const timestamp = headers['x-svc-timestamp'];
  const received = headers['x-svc-signature-timestamped'] || '';
  if (!/^\d+$/.test(timestamp || '') || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

module.exports = { verifyWebhook };

if (require.main === module) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the secret printed by webhooks:register');
  const seen = new Set(); // use a database in production: deliveries are at-least-once
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8'); // the raw body, not re-serialised JSON
      if (!verifyWebhook(secret, raw, req.headers)) {
        res.writeHead(400).end('bad signature');
        return;
      }
      res.writeHead(204).end(); // answer quickly...
      const event = JSON.parse(raw);
      if (seen.has(event.id)) return; // ...de-duplicate on the payload id (replays keep it)...
      seen.add(event.id);
      setImmediate(() => console.log(event.event, event.id, JSON.stringify(event.data).slice(0, 120))); // ...process later
    });
  }).listen(Number(process.env.PORT || 4500), () => console.log(`listening on ${process.env.PORT || 4500}`));
}
