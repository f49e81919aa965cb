import type { Actor } from '../audit/audit.log';
import { DomainError, insufficientScope, notFound } from '../errors';
import type { StudioPrincipal } from '../studio/studio-auth.service';
import type { ChannelPrincipal } from './channel-key-authenticator';
import type { Role } from './channel.entities';

/** The operator (the command line, the demo seeder, tests): may do anything, audited as its actor. */
export interface OperatorPrincipal {
  kind: 'operator';
  /** The audit actor, e.g. `operator:alice` or `demo-seed`. */
  actor: Actor;
}

/** Whoever acts on a channel, whatever the door: a channel key, a studio user or the operator. */
export type Principal = ChannelPrincipal | StudioPrincipal | OperatorPrincipal;

export const operator = (actor: Actor): OperatorPrincipal => ({ kind: 'operator', actor });

/** What a principal may do on a channel: read it, manage its broadcasts, its API keys, its webhooks. */
export const PERMISSIONS = ['read', 'broadcasts', 'keys', 'webhooks'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each studio role may do on its channel (docs/decisions.md#studio-roles). */
const ALLOWED: Record<Role, readonly Permission[]> = {
  owner: ['read', 'broadcasts', 'keys', 'webhooks'],
  manager: ['read', 'broadcasts', 'keys', 'webhooks'],
  editor: ['read', 'broadcasts'],
  viewer: ['read'],
};

/**
 * What a studio role may do on its channel: the same table accessError judges by, so that the
 * studio shows only the controls the role may use (docs/decisions.md#studio-roles).
 */
export function permissionsOf(role: Role): readonly Permission[] {
  return ALLOWED[role];
}

/** The scope a channel key needs for each permission; keys and webhooks are managed in the studio only. */
const SCOPE: Record<Permission, string | null> = { read: 'read', broadcasts: 'broadcasts:write', keys: null, webhooks: null };

/**
 * Why `principal` may not have `permission` on the channel, or null when it may: the one rule of
 * channel access for every door (docs/decisions.md#channel-isolation, docs/decisions.md#studio-roles).
 *
 * - A channel the principal has nothing to do with (another channel's key, a user without a role
 *   there) is not found: `subject` names what was asked for (`broadcast not found`), so that it
 *   reads like something that does not exist.
 * - A studio role without the permission is forbidden; a channel key without the scope is
 *   `insufficient_scope` (the TV door checks the scope first, with the same words).
 * - The operator may do anything.
 */
export function accessError(principal: Principal, channelId: string, permission: Permission, subject = 'channel'): DomainError | null {
  switch (principal.kind) {
    case 'operator':
      return null;
    case 'channel': {
      if (principal.channelId !== channelId) return notFound(subject);
      const scope = SCOPE[permission];
      if (scope === null) return new DomainError('forbidden', `a channel key cannot manage ${permission}: that is done in the studio`);
      return principal.scopes.includes(scope) ? null : insufficientScope(scope, principal.scopes);
    }
    case 'studio': {
      const role = principal.roles.get(channelId);
      if (!role) return notFound(subject);
      if (!ALLOWED[role].includes(permission)) return new DomainError('forbidden', `the ${role} role cannot manage ${permission} on this channel`);
      return null;
    }
  }
}

/** Throws the refusal of accessError, if any. */
export function authorize(principal: Principal, channelId: string, permission: Permission, subject = 'channel'): void {
  const refusal = accessError(principal, channelId, permission, subject);
  if (refusal) throw refusal;
}

/** Who the audit log names for a principal's changes. */
export function auditActor(principal: Principal): Actor {
  switch (principal.kind) {
    case 'operator':
      return principal.actor;
    case 'channel':
      return { id: `channel-key:${principal.keyId}` };
    case 'studio':
      return { id: `studio:${principal.email}` };
  }
}
