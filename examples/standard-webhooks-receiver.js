// A receiver that verifies deliveries with the `standardwebhooks` library (npm install standardwebhooks)
// instead of hand-written HMAC code: it reads the webhook-id, webhook-timestamp and webhook-signature
// headers every delivery carries beside the X-SVC ones.
//   WEBHOOK_SECRET=whsec_... PORT=4500 node examples/standard-webhooks-receiver.js
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');

/**
 * The library decodes the part after `whsec_` as standard base64. Secrets issued by the service
 * are base64url without `-` or `_`, so they work as printed; one issued before that may hold
 * them: map them to `+` and `/` (a no-op for the others).
 */
function standardSecret(secret) {
  return `whsec_${secret
    .replace(/^whsec_/, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/')}`;
}

/** The parsed event when the delivery was signed with `secret` less than 5 minutes ago; otherwise it throws. */
function verifyDelivery(secret, rawBody, headers) {
  return new Webhook(standardSecret(secret)).verify(rawBody, headers);
}

module.exports = { standardSecret, verifyDelivery };

if (require.main === module) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the secret printed by webhooks:register');
  const seen = new Set(); // use a database in production: deliveries are at-least-once
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let event;
      try {
        event = verifyDelivery(secret, Buffer.concat(chunks).toString('utf8'), req.headers); // the raw body
      } catch {
        res.writeHead(400).end('bad signature');
        return;
      }
      res.writeHead(204).end(); // answer quickly...
      if (seen.has(event.id)) return; // ...de-duplicate on the payload id (= webhook-id; replays keep it)...
      seen.add(event.id);
      setImmediate(() => console.log(event.event, event.id, JSON.stringify(event.data).slice(0, 120))); // ...process later
    });
  }).listen(Number(process.env.PORT || 4500), () => console.log(`listening on ${process.env.PORT || 4500}`));
}
