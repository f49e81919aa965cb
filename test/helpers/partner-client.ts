import request from 'supertest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpHandler } from '../../src/app';
import { createOpenApiValidator } from './openapi.validator';

const doc = JSON.parse(readFileSync(join(__dirname, '..', '..', 'schema', 'openapi.json'), 'utf8'));
export const partnerSpec = createOpenApiValidator(doc, '/api/v1');

/**
 * GET on the partner API with a key; every response is checked against schema/openapi.json
 * (body, status and documented headers), so no test can pass on an undocumented answer.
 */
export async function getPartner(app: HttpHandler, path: string, key?: string | null, headers: Record<string, string> = {}) {
  let req = request(app).get(`/api/v1${path}`);
  if (key) req = req.set('Authorization', `Bearer ${key}`);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  const res = await req;
  partnerSpec.expectValid(res);
  return res;
}
