/** The path parameters several TV operations share, with the document's words for them. */
import type { PathParam } from '../../http/operation';
import { DEMO_RECORDS } from '../../demo/demo-records';

/**
 * One path, two doors: a broadcast's public page by slug (GET), its channel's edit by id (PATCH).
 * The same words on both; each its own component, so that each shows an example it accepts.
 */
const BROADCAST_REF_DESCRIPTION =
  'The broadcast: on GET (public) its **slug**, on PATCH (channel key) its **id** (a uuid). An unknown ' +
  "slug or id, a value that is not a uuid on PATCH, or another channel's broadcast is a 404.";

/** The PATCH's: an id. */
export const BroadcastRef: PathParam = { component: 'BroadcastRef', description: BROADCAST_REF_DESCRIPTION, example: DEMO_RECORDS.broadcastId };

/** The public GET's: a slug. */
export const BroadcastSlug: PathParam = { component: 'BroadcastSlug', description: BROADCAST_REF_DESCRIPTION, example: DEMO_RECORDS.broadcastSlug };

export const BroadcastId: PathParam = {
  component: 'BroadcastId',
  description: "Broadcast id (a uuid). An unknown id, a value that is not a uuid, or another channel's broadcast is a 404.",
  schema: { type: 'string', format: 'uuid' },
  example: DEMO_RECORDS.broadcastId,
};

/** What every public TV read declares alike: a GET without a key, charged to the client address, readable by any web page. */
export const PUBLIC_READ = { method: 'GET', credential: 'none', scope: null, limit: 'client-ip', cors: 'public' } as const;
