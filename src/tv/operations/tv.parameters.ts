/** The path parameters several TV operations share, with the document's words for them. */
import type { PathParam } from '../../http/operation';

/** One path, two doors: a broadcast's public page by slug (GET), its channel's edit by id (PATCH). */
export const BroadcastRef: PathParam = {
  component: 'BroadcastRef',
  description:
    'The broadcast: on GET (public) its **slug**, on PATCH (channel key) its **id** (a uuid). An unknown ' +
    "slug or id, a value that is not a uuid on PATCH, or another channel's broadcast is a 404.",
  example: 'berlin-open-finals',
};

export const BroadcastId: PathParam = {
  component: 'BroadcastId',
  description: "Broadcast id (a uuid). An unknown id, a value that is not a uuid, or another channel's broadcast is a 404.",
  schema: { type: 'string', format: 'uuid' },
  example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
};

/** What every public TV read declares alike: a GET without a key, charged to the client address, readable by any web page. */
export const PUBLIC_READ = { method: 'GET', credential: 'none', scope: null, limit: 'client-ip', cors: 'public' } as const;
