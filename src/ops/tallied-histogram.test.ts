import { Histogram, type Metric, Registry } from 'prom-client';
import { TalliedHistogram } from './metrics';

const BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

describe('TalliedHistogram', () => {
  it("is exposed as prom-client's Histogram with the same observations, in text and JSON", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({ name: 'h_seconds', help: 'Time of a thing', labelNames: ['door', 'route'], buckets: BUCKETS, registers: [theirs] });
    const tallied = new TalliedHistogram('h_seconds', 'Time of a thing', BUCKETS);
    ours.registerMetric(tallied as unknown as Metric);
    const observations: Array<[Record<string, string>, number]> = [
      [{ door: 'partner', route: '/api/v1/rankings' }, 0.0004],
      [{ door: 'partner', route: '/api/v1/rankings' }, 0.0031],
      [{ door: 'tv', route: '/api/tv/live' }, 0.7],
      [{ door: 'partner', route: '/api/v1/rankings' }, 12],
      [{ door: 'tv', route: '/api/tv/live' }, 0.01],
      [{ door: 'partner', route: '/api/v1/me' }, 0.002],
    ];
    const kept = tallied.series({ door: 'partner', route: '/api/v1/rankings' });
    expect(tallied.series({ door: 'partner', route: '/api/v1/rankings' })).toBe(kept);
    for (const [labels, value] of observations) {
      reference.observe(labels, value);
      tallied.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await ours.metrics()).toContain('h_seconds_bucket{le="0.005",door="partner",route="/api/v1/rankings"} 2');
  });
});
