/**
 * Validates real responses against an OpenAPI 3.0 document (the partner API's, normally).
 *
 *   const v = createOpenApiValidator(buildPartnerOpenApi(), '/api/v1');
 *   v.expectValid(await request(app).get('/api/v1/me').set(auth));   // throws listing violations
 *   v.validate('GET', '/api/v1/me', 200, body, headers?)             // => string[] (empty = valid)
 *
 * What counts as a violation:
 * - a path that matches no template of the document (under `basePath`);
 * - a method the path does not document (HEAD is implied by GET), unless the status is 405, which the
 *   document describes once for all paths (its body must then be an `Error`);
 * - a status the operation does not document (exact code, then `4XX`-style range, then `default`);
 * - a body that does not match the response schema (304 and HEAD answers have no body to check);
 * - when headers are given (expectValid always gives them): a missing `required: true` header of the
 *   response, a non-integer value of an integer header, or a non-JSON content type for a JSON body.
 *
 * Schemas are compiled by ajv (strict off, all errors, ajv-formats). The whole document is
 * registered with ajv under an `$id`, and each response schema is compiled as a `$ref` to its JSON
 * pointer inside it, so `#/components/...` references resolve as they are written. Ajv 8 implements
 * OpenAPI 3.0's `nullable` natively (`nullable: true` next to a `type` adds null); a `nullable` without
 * `type`, which ajv rejects and which OpenAPI 3.0.3 gives no effect, is dropped from the copy given to ajv.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';

export interface OpenApiValidator {
  /** Violations of the document by one answer; empty when it conforms. */
  validate(method: string, path: string, status: number, body: unknown, headers?: Record<string, unknown>): string[];
  /** Throws an Error listing every violation of a supertest response. */
  expectValid(res: Response): void;
}

type Json = Record<string, any>;

const DOCUMENT_ID = 'https://openapi.invalid/document.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Deep copy for ajv: drops `nullable` where there is no `type` beside it. */
function prepareForAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prepareForAjv);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) out[key] = prepareForAjv(value);
  if (typeof out.nullable === 'boolean' && out.type === undefined) delete out.nullable;
  return out;
}

const escapePointerToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerToFragment = (tokens: string[]): string => tokens.map((t) => `/${encodeURIComponent(escapePointerToken(t))}`).join('');

function refToTokens(ref: string): string[] {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function formatAjvError(e: ErrorObject): string {
  const where = `body${e.instancePath}`;
  const params = e.params as Json;
  let detail = '';
  if (e.keyword === 'additionalProperties') detail = ` (unexpected property "${params.additionalProperty}")`;
  else if (e.keyword === 'enum') detail = ` (allowed: ${JSON.stringify(params.allowedValues)})`;
  const title = (e.parentSchema as Json | undefined)?.title;
  return `${where} ${e.message}${detail}${typeof title === 'string' ? ` (schema ${title})` : ''}`;
}

/** Literal segments win over parameters, the earliest difference deciding. */
function outranks(a: number[], b: number[]): boolean {
  const i = a.findIndex((x, j) => x !== b[j]);
  return i >= 0 && a[i] > b[i];
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || body === '' || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body as object).length === 0);
}

export function createOpenApiValidator(doc: any, basePath: string): OpenApiValidator {
  const document = doc as Json;
  const base = basePath.replace(/\/+$/, '');
  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true, validateSchema: false });
  addFormats(ajv);
  const prepared = prepareForAjv(document) as Json;
  // Named component schemas get a `title` in ajv's copy, so that messages can say which one failed.
  for (const [name, schema] of Object.entries<Json>(prepared.components?.schemas ?? {})) {
    if (schema && typeof schema === 'object' && schema.title === undefined) schema.title = name;
  }
  ajv.addSchema({ ...prepared, $id: DOCUMENT_ID });

  const compiled = new Map<string, ValidateFunction>();
  const compileAt = (tokens: string[]): ValidateFunction => {
    const fragment = pointerToFragment(tokens);
    let fn = compiled.get(fragment);
    if (!fn) {
      fn = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      compiled.set(fragment, fn);
    }
    return fn;
  };

  const at = (tokens: string[]): any => tokens.reduce<any>((node, t) => (node == null ? undefined : node[t]), document);

  /** Follows `$ref`s of non-schema objects (responses, headers), returning the target and its pointer. */
  const deref = (tokens: string[]): { node: Json; tokens: string[] } => {
    let node = at(tokens);
    let seen = 0;
    while (node && typeof node.$ref === 'string') {
      if (++seen > 20) throw new Error(`reference cycle at #${pointerToFragment(tokens)}`);
      tokens = refToTokens(node.$ref);
      node = at(tokens);
    }
    return { node, tokens };
  };

  const templates = Object.keys(document.paths ?? {}).map((template) => ({
    template,
    segments: template.split('/').slice(1),
  }));

  function matchTemplate(relative: string): string | undefined {
    const segments = relative.split('/').slice(1);
    let best: { template: string; score: number[] } | undefined;
    for (const t of templates) {
      if (t.segments.length !== segments.length) continue;
      const score: number[] = [];
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const seg = t.segments[i];
        if (/^\{[^}]+\}$/.test(seg)) {
          ok = segments[i].length > 0;
          score.push(0);
        } else {
          let actual = segments[i];
          try {
            actual = decodeURIComponent(actual);
          } catch {
            /* keep raw */
          }
          ok = seg === actual;
          score.push(1);
        }
      }
      if (!ok) continue;
      if (!best || outranks(score, best.score)) best = { template: t.template, score };
    }
    return best?.template;
  }

  function statusKey(responses: Json, status: number): string | undefined {
    const exact = String(status);
    if (responses[exact]) return exact;
    const range = `${exact[0]}XX`;
    if (responses[range]) return range;
    if (responses[range.toLowerCase()]) return range.toLowerCase();
    if (responses.default) return 'default';
    return undefined;
  }

  function checkHeaders(label: string, response: Json, responseTokens: string[], headers: Record<string, unknown>): string[] {
    const errors: string[] = [];
    const lower: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
    for (const name of Object.keys(response.headers ?? {})) {
      const { node: header } = deref([...responseTokens, 'headers', name]);
      if (!header) continue;
      const value = lower[name.toLowerCase()];
      if (value === undefined) {
        if (header.required === true) errors.push(`${label}: missing header ${name}`);
        continue;
      }
      const schema = header.schema ?? {};
      if (schema.type === 'integer' && !/^-?\d+$/.test(String(value).trim())) {
        errors.push(`${label}: header ${name} must be an integer, got ${JSON.stringify(value)}`);
      }
    }
    return errors;
  }

  function validate(method: string, path: string, status: number, body: unknown, headers?: Record<string, unknown>): string[] {
    const verb = method.toLowerCase();
    const pathname = path.split('?')[0].split('#')[0];
    const label0 = `${method.toUpperCase()} ${pathname} ${status}`;

    if (pathname !== base && !pathname.startsWith(`${base}/`)) {
      return [`${label0}: path is not under the base path ${base || '/'}`];
    }
    let relative = pathname.slice(base.length) || '/';
    if (relative.length > 1 && relative.endsWith('/')) relative = relative.slice(0, -1);
    const template = matchTemplate(relative);
    if (!template) return [`${label0}: path ${relative} is not in the document`];

    const pathItem = document.paths[template] as Json;
    const opVerb = verb === 'head' && !pathItem.head ? 'get' : verb;
    const label = `${method.toUpperCase()} ${template} ${status}`;
    const noBody = verb === 'head' || status === 304;

    if (!METHODS.includes(opVerb) || !pathItem[opVerb]) {
      if (status !== 405) return [`${label}: method ${method.toUpperCase()} is not documented for ${template}`];
      // 405 is described once for the whole API; its body is an Error.
      if (noBody || !document.components?.schemas?.Error) return [];
      const fn = compileAt(['components', 'schemas', 'Error']);
      return fn(body) ? [] : (fn.errors ?? []).map((e) => `${label}: ${formatAjvError(e)}`);
    }

    const opTokens = ['paths', template, opVerb];
    const responses = (pathItem[opVerb].responses ?? {}) as Json;
    const key = statusKey(responses, status);
    if (!key) {
      return [`${label}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    }
    const { node: response, tokens: responseTokens } = deref([...opTokens, 'responses', key]);
    const errors: string[] = headers ? checkHeaders(label, response, responseTokens, headers) : [];
    if (noBody) return errors;

    const content = (response.content ?? {}) as Json;
    const mediaType = Object.keys(content).find((m) => /^application\/(?:[\w.+-]+\+)?json\b/.test(m));
    if (!mediaType) {
      if (Object.keys(content).length === 0 && !isEmptyBody(body)) {
        errors.push(`${label}: the document describes no body, but one was sent`);
      }
      return errors;
    }
    if (headers) {
      const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
      if (!/json/i.test(String(contentType ?? ''))) {
        errors.push(`${label}: content type must be ${mediaType}, got ${JSON.stringify(contentType ?? null)}`);
      }
    }
    if (!content[mediaType].schema) return errors;
    const fn = compileAt([...responseTokens, 'content', mediaType, 'schema']);
    if (!fn(body)) errors.push(...(fn.errors ?? []).map((e) => `${label}: ${formatAjvError(e)}`));
    return errors;
  }

  function expectValid(res: Response): void {
    const raw = res as unknown as {
      req?: { method?: string; path?: string };
      request?: { method?: string; url?: string };
    };
    const method = raw.req?.method ?? raw.request?.method ?? 'GET';
    let path = raw.req?.path;
    if (path === undefined && raw.request?.url) {
      const url = new URL(raw.request.url, 'http://localhost');
      path = `${url.pathname}${url.search}`;
    }
    const errors = validate(method, path ?? '/', res.status, res.body, res.headers as Record<string, unknown>);
    if (errors.length > 0) {
      const body = JSON.stringify(res.body, null, 2) ?? 'undefined';
      throw new Error(
        `Response does not conform to the OpenAPI document (${errors.length} violation${errors.length === 1 ? '' : 's'}):\n` +
          errors.map((e) => `  - ${e}`).join('\n') +
          `\nBody:\n${body.length > 2000 ? `${body.slice(0, 2000)}\n...` : body}`,
      );
    }
  }

  return { validate, expectValid };
}
