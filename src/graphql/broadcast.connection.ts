import type { BroadcastRecord, BroadcastState } from '../domain/channels/broadcast.entities';
import type { BroadcastKey, StudioQueries } from '../domain/channels/studio.queries';
import { DomainError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { toGqlBroadcast } from './broadcast.mapper';
import type { BroadcastConnection } from './graphql.types';

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

/** The Relay arguments of a connection: `first` with `after` pages forward, `last` with `before` backward. */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export function encodeCursor(b: Pick<BroadcastRecord, 'scheduledAt' | 'id'>): string {
  return Buffer.from(`${b.scheduledAt.toISOString()}|${b.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): BroadcastKey | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const scheduledAt = new Date(at ?? '');
  return Number.isNaN(scheduledAt.getTime()) || !isUuid(id ?? '') ? null : { scheduledAt, id };
}

function cursorArg(name: 'after' | 'before', value: string | null | undefined): BroadcastKey | undefined {
  if (value === null || value === undefined) return undefined;
  const key = decodeCursor(value);
  if (!key) throw new DomainError(`invalid_${name}`, `${name} is not a cursor of this connection`);
  return key;
}

function sizeArg(name: 'first' | 'last', value: number): number {
  if (value < 1 || value > MAX_PAGE) throw new DomainError(`invalid_${name}`, `${name} must be from 1 to ${MAX_PAGE}`);
  return value;
}

/**
 * One page of a channel's broadcasts (newest scheduled first) as a Relay connection. Forward
 * (`first`, default 20, after `after`): hasNextPage when more follow the page, hasPreviousPage when
 * the list holds broadcasts up to `after`. Backward (`last`, before `before`): the mirror image.
 * `after` and `before` may bound the same window; `first` and `last` together are refused.
 * One statement for the page (one more for the far side when a cursor is given).
 */
export async function broadcastConnection(
  studio: StudioQueries,
  channelId: string,
  state: BroadcastState | undefined,
  args: PageArgs,
  ingestServerUrl: string,
): Promise<BroadcastConnection> {
  const hasFirst = args.first !== null && args.first !== undefined;
  const hasLast = args.last !== null && args.last !== undefined;
  if (hasFirst && hasLast) throw new DomainError('invalid_last', 'give first or last, not both');
  const after = cursorArg('after', args.after);
  const before = cursorArg('before', args.before);
  const backward = hasLast;
  const size = backward ? sizeArg('last', args.last!) : sizeArg('first', args.first ?? DEFAULT_PAGE);
  const beyond = backward ? before : after;
  const [rows, farSide] = await Promise.all([
    studio.channelBroadcasts(channelId, { state, after, before, limit: size + 1, fromEnd: backward }),
    beyond ? studio.hasBroadcastsBeyond(channelId, beyond, backward ? 'later' : 'earlier', state) : Promise.resolve(false),
  ]);
  const more = rows.length > size;
  const page = backward ? rows.slice(rows.length - Math.min(rows.length, size)) : rows.slice(0, size);
  const edges = page.map((b) => ({ cursor: encodeCursor(b), node: toGqlBroadcast(b, ingestServerUrl) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: backward ? farSide : more,
      hasPreviousPage: backward ? more : farSide,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
