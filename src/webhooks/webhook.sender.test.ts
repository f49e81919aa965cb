import { WebhookSender } from './webhook.sender';

/**
 * docs/decisions.md#delivery: the whole exchange is bounded by the time-out, and a time-out is
 * logged as one, whichever part of the exchange it cut short.
 */
describe('WebhookSender time-out', () => {
  it('bounds an exchange whose connection is never made (a lookup that never answers), and logs it as a time-out', async () => {
    const sender = new WebhookSender({ allowInsecure: true, allowPrivate: false, resolve: () => new Promise(() => undefined) }, 300);
    try {
      const result = await sender.send('http://never-answers.example/hooks', { 'content-type': 'application/json' }, '{}');
      expect(result).toMatchObject({ statusCode: null, error: 'timed out after 300 ms', excerpt: null });
      expect(result.durationMs).toBeGreaterThanOrEqual(280);
    } finally {
      await sender.close();
    }
  });
});
