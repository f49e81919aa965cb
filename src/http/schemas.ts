/**
 * The answer shapes every door shares, as zod schemas (docs/adr/0008-layering.md, "Schemas are the
 * source"): `Meta`, the paging of a list answer (query.ts `meta()` builds it), and `Error`, the body
 * of every error answer (client-error.ts). Both OpenAPI documents list them under these names.
 */
import { z } from 'zod';

export const PageMeta = z
  .strictObject({
    page: z.int().min(1).meta({ description: 'Current page.' }),
    per_page: z.int().min(1).max(100).meta({ description: 'Page size.' }),
    total: z.int().min(0).meta({ description: 'Number of matching items.' }),
    last_page: z.int().min(0).meta({ description: 'Number of the last page.' }),
  })
  .meta({ description: 'Pagination of a list answer. A page past the end is a 200 with empty `data` and true `meta`.' });

/** The one open object: an error answer may add fields. */
export const ErrorBody = z
  .looseObject({
    error: z.string().meta({ description: 'Machine-readable error code.' }),
    message: z.string().meta({ description: 'Human-readable explanation.' }),
    request_id: z.string().optional().meta({ description: 'The request id (also in the `X-Request-Id` header).' }),
  })
  .meta({ description: 'Body of every error answer.' });

export type PageMetaBody = z.infer<typeof PageMeta>;
export type ErrorBodyType = z.infer<typeof ErrorBody>;
