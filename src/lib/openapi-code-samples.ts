/**
 * Copy-ready request samples (curl and Node) for every operation of a finished OpenAPI document,
 * written into the document as `x-codeSamples` (the extension Redoc, Scalar and others show), so
 * that every viewer of the document sees the same samples. A step after the document is built:
 * it reads only the document (servers, security, parameters and their examples, request bodies)
 * and the key to show, never the tables the document was built from.
 *
 * Run when the documents are generated (`npm run schema`), never while serving: openapi-sampler,
 * a development dependency, fills in request bodies that carry no example.
 */
import { sample } from 'openapi-sampler';
import { resolveRef } from './openapi-ref';

type Json = Record<string, any>;

/** Where `npm start` serves the demo: the samples' prefix for relative server URLs. */
export const DEMO_ORIGIN = 'http://localhost:3000';

export interface CodeSampleOptions {
  /** The key a sample sends where the operation needs one (a demo key). */
  key: string;
  /** Prefix of a relative server URL: where the demo runs. */
  origin: string;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The base URL of the document's first server: variables at their defaults, a relative URL on `origin`. */
export function baseUrl(doc: Json, origin: string): string {
  const server = doc.servers?.[0] ?? { url: '/' };
  const url = String(server.url).replace(/\{([^}]+)\}/g, (_m, name: string) => String(server.variables?.[name]?.default ?? name));
  return (/^https?:\/\//.test(url) ? url : `${origin.replace(/\/$/, '')}${url.startsWith('/') ? '' : '/'}${url}`).replace(/\/$/, '');
}

function exampleOf(param: Json): unknown {
  const firstExample = param.examples ? (Object.values(param.examples)[0] as Json | undefined)?.value : undefined;
  return param.example ?? firstExample ?? param.schema?.example ?? param.schema?.enum?.[0] ?? param.schema?.default;
}

/** The headers the operation's first security requirement asks for, with the key. */
function authHeaders(doc: Json, op: Json, key: string): [string, string][] {
  const requirement = (op.security ?? doc.security ?? [])[0] as Json | undefined;
  const schemeName = requirement ? Object.keys(requirement)[0] : undefined;
  if (!schemeName) return [];
  const scheme = resolveRef(doc, doc.components?.securitySchemes?.[schemeName] ?? {});
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') return [['Authorization', `Bearer ${key}`]];
  if (scheme.type === 'apiKey' && scheme.in === 'header') return [[scheme.name, key]];
  return [];
}

function requestUrl(doc: Json, path: string, op: Json, base: string, item: Json): string {
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolveRef(doc, p));
  let url = path;
  const query = new URLSearchParams();
  for (const p of params) {
    const value = exampleOf(p);
    if (p.in === 'path') url = url.replace(`{${p.name}}`, value === undefined ? `{${p.name}}` : encodeURIComponent(String(value)));
    // Optional query parameters appear when the document shows a value for them: an example, or
    // the first of a closed list (a filter such as a discipline), never a bare default.
    else if (
      p.in === 'query' &&
      value !== undefined &&
      (p.required || p.example !== undefined || p.examples || p.schema?.example !== undefined || p.schema?.enum)
    ) {
      query.set(p.name, String(value));
    }
  }
  const qs = query.toString();
  return `${base}${url}${qs ? `?${qs}` : ''}`;
}

function requestBody(doc: Json, op: Json): unknown {
  if (!op.requestBody) return undefined;
  const media = resolveRef(doc, op.requestBody).content?.['application/json'];
  if (!media) return undefined;
  const firstExample = media.examples ? resolveRef(doc, Object.values(media.examples)[0] as Json).value : undefined;
  return media.example ?? firstExample ?? sample(media.schema ?? {}, { skipReadOnly: true, skipNonRequired: false }, doc);
}

/** Whether the first 2xx answer has a JSON body to print. */
function answersJson(doc: Json, op: Json): boolean {
  const [, ok] = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2')) ?? [];
  return Boolean(ok && resolveRef(doc, ok as Json).content?.['application/json']);
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(method: string, url: string, headers: [string, string][], body: unknown): string {
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`];
  for (const [name, value] of headers) lines.push(`  -H "${name}: ${value}"`);
  if (body !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

export function nodeSample(method: string, url: string, headers: [string, string][], body: unknown, json: boolean): string {
  const allHeaders = body === undefined ? headers : [...headers, ['Content-Type', 'application/json'] as [string, string]];
  const init: string[] = [];
  if (method !== 'get') init.push(`  method: '${method.toUpperCase()}',`);
  if (allHeaders.length > 0) init.push(`  headers: { ${allHeaders.map(([n, v]) => `${/^[A-Za-z_$][\w$]*$/.test(n) ? n : `'${n}'`}: '${v}'`).join(', ')} },`);
  if (body !== undefined) init.push(`  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`);
  return [
    '// Node 18 or later (fetch is built in), in an ES module (.mjs) or the REPL',
    init.length ? `const res = await fetch('${url}', {\n${init.join('\n')}\n});` : `const res = await fetch('${url}');`,
    json ? 'console.log(res.status, await res.json());' : 'console.log(res.status);',
  ].join('\n');
}

/** The document with `x-codeSamples` (curl, then Node) on every operation; the input is not changed. */
export function withCodeSamples<T extends Json>(document: T, options: CodeSampleOptions): T {
  const doc = structuredClone(document) as Json;
  const base = baseUrl(doc, options.origin);
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const url = requestUrl(doc, path, op, base, item);
      const headers = authHeaders(doc, op, options.key);
      const body = requestBody(doc, op);
      const samples: CodeSample[] = [
        { lang: 'Shell', label: 'curl', source: curlSample(method, url, headers, body) },
        { lang: 'JavaScript', label: 'Node.js', source: nodeSample(method, url, headers, body, answersJson(doc, op)) },
      ];
      op['x-codeSamples'] = samples;
    }
  }
  return doc as T;
}
