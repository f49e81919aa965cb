import type { PartnerScope } from '../domain/partners/partner.entities';

const ALL: PartnerScope[] = ['rankings.read', 'fighters.read', 'events.read', 'results.read'];

export interface DemoKey {
  token: string;
  description: string;
  partner: 'demo-media' | 'demo-suspended';
  scopes: PartnerScope[];
  limit: number;
  expired?: boolean;
  revoked?: boolean;
}

/** The documented fixed demo keys (docs/decisions.md#demo). They keep the pk_ prefix, not the generated length. */
export const DEMO_KEYS: readonly DemoKey[] = [
  { token: 'pk_demo_full', description: 'all four scopes, 60 per minute', partner: 'demo-media', scopes: ALL, limit: 60 },
  { token: 'pk_demo_rankings', description: 'rankings.read only', partner: 'demo-media', scopes: ['rankings.read'], limit: 60 },
  { token: 'pk_demo_low', description: 'all scopes, 5 per minute (try the 429)', partner: 'demo-media', scopes: ALL, limit: 5 },
  { token: 'pk_demo_bench', description: 'all scopes, 10,000,000 per minute (benchmarks)', partner: 'demo-media', scopes: ALL, limit: 10_000_000 },
  { token: 'pk_demo_expired', description: 'expired (401 invalid_key)', partner: 'demo-media', scopes: ALL, limit: 60, expired: true },
  { token: 'pk_demo_revoked', description: 'revoked (401 invalid_key)', partner: 'demo-media', scopes: ALL, limit: 60, revoked: true },
  { token: 'pk_demo_suspended', description: 'its partner is suspended (401 invalid_key)', partner: 'demo-suspended', scopes: ALL, limit: 60 },
];
