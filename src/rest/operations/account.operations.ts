/** Verification of document numbers, and the key in use. */
import { defineOperation } from '../../http/operation';
import type { PartnerPrincipal } from '../../domain/partners/key-authenticator';
import { then } from '../../lib/maybe';
import type { PartnerApiDeps } from '../partner-api.deps';
import { partnerRead } from '../partner.parameters';
import { DEMO_RECORDS } from '../../demo/demo-records';

export const verifyNumber = defineOperation({
  path: '/verify/{number}',
  ...partnerRead(null),
  kept: true,
  params: {
    number: {
      component: 'DocumentNumber',
      description:
        'A fighter ID `FID-XXXX-XXXX` (Crockford base32), a licence number `LIC-CC-YYYY-NNNNNN` (CC = ISO ' +
        'country code) or a certificate number `CRT-YYYY-NNNNNN`. Matched case-insensitively after trimming. ' +
        'A malformed number is a 422 `invalid_number`; a well-formed unknown one a 404.',
      example: DEMO_RECORDS.fighterId,
    },
  },
  handler: (deps: PartnerApiDeps, { params: p }) => then(deps.catalog.verify(p.number), (json) => ({ json })),
  doc: {
    operationId: 'verifyNumber',
    tag: 'Verification',
    summary: 'Verify a fighter ID, licence or certificate number',
    description:
      'Checks a fighter ID, licence number or certificate number. `status`: `ACTIVE` (valid and in date; ' +
      'the only status with `valid: true`), `SUSPENDED`, `EXPIRED` (past its validity), `PENDING ' +
      'VERIFICATION` (issued, not yet verified), `NO MATCHING RECORD` (the number was issued but no longer ' +
      'belongs to a current record: superseded on renewal, revoked or erased; `fighter` is then null). ' +
      '`matched` tells which kind of number matched. For a minor the fighter is the reduced profile.',
    invalid: ['invalid_number'],
    notFound: true,
    okDescription: 'The verification answer.',
    body: 'VerificationResponse',
  },
});

export const getKeyInfo = defineOperation({
  path: '/me',
  ...partnerRead(null),
  // not kept: `request_count` moves with every request, this one included
  handler: (deps: PartnerApiDeps, { principal }: { principal: PartnerPrincipal }) => then(deps.catalog.me(principal), (json) => ({ json })),
  doc: {
    operationId: 'getKeyInfo',
    tag: 'Account',
    summary: 'The key in use',
    description: 'Name, partner, scopes, rate limit, expiry and request count of the key used for the request.',
    okDescription: 'The key information.',
    body: 'KeyInfoResponse',
  },
});
