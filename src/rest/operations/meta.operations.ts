/** The partner API's own description. */
import { defineOperation } from '../../http/operation';
import { preparedOnce } from '../../http/send-json';
import { openApiDocumentBody } from '../../lib/openapi.helpers';
import type { PartnerApiDeps } from '../partner-api.deps';

export const getOpenApiDocument = defineOperation({
  method: 'GET',
  path: '/openapi.json',
  credential: 'none',
  scope: null,
  limit: 'none',
  // Public, but still a GET of the API: it gets an ETag and 304s like every other (docs/decisions.md#etags).
  handler: (deps: PartnerApiDeps) => ({ json: preparedOnce(deps.openApiJson) }),
  doc: {
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.0.3 description of the partner API (this document).',
    okDescription: 'The OpenAPI document.',
    body: openApiDocumentBody(),
  },
});
