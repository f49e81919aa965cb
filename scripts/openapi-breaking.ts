// Classifies the differences between two OpenAPI 3.x documents the way oasdiff's breaking-change
// checks do (docs/api-changes.md): per operation, following $refs, parameters, request bodies
// and responses are compared with the direction that matters to a client: a request may accept
// more, an answer may say less only where clients cannot rely on it. Each change carries the
// names that cover it (the operation, and the component schemas it was found through) so that a
// changelog entry naming any of them accounts for it.
import { resolveRef } from '../src/lib/openapi-ref';

type Json = Record<string, any>;
export type Level = 'breaking' | 'warning' | 'info';

export interface ApiChange {
  level: Level;
  /** oasdiff-style id: `response-property-removed`. */
  id: string;
  /** `GET /api/v1/events`. */
  operation: string;
  /** Where in the operation: `response 200 data[].url`. */
  where: string;
  /** Names a changelog entry may use for it: the operation, the schemas and properties on the way. */
  names: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function serverPath(doc: Json): string {
  const url = String(doc.servers?.[0]?.url ?? '');
  return url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\/$/, '');
}

interface Ctx {
  out: ApiChange[];
  operation: string;
  direction: 'request' | 'response';
  oldDoc: Json;
  newDoc: Json;
}

function add(ctx: Ctx, level: Level, id: string, where: string, names: string[]): void {
  ctx.out.push({ level, id, operation: ctx.operation, where, names: [ctx.operation, ...names] });
}

/** A schema with its $refs followed and `allOf` merged; `refs` collects the component names met. */
function flat(doc: Json, node: Json | undefined, refs: string[]): Json {
  let schema = node ?? {};
  while (schema.$ref) {
    refs.push(String(schema.$ref).split('/').pop()!);
    schema = resolveRef(doc, schema);
  }
  if (!schema.allOf) return schema;
  const merged: Json = { ...schema, allOf: undefined, properties: { ...(schema.properties ?? {}) }, required: [...(schema.required ?? [])] };
  for (const part of schema.allOf) {
    const p = flat(doc, part, refs);
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...(p.required ?? []));
    for (const key of ['type', 'enum', 'nullable', 'items', 'format']) if (p[key] !== undefined && merged[key] === undefined) merged[key] = p[key];
  }
  return merged;
}

const types = (s: Json): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []).filter((t: string) => t !== 'null').sort();
/** A branch that only says "or null" (`{type: 'null'}`, `{nullable: true, enum: [null]}`): nullability, not a variant. */
const nullOnly = (s: Json): boolean => s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);
const nullable = (s: Json): boolean =>
  s.nullable === true ||
  (Array.isArray(s.type) && s.type.includes('null')) ||
  (Array.isArray(s.enum) && s.enum.includes(null)) ||
  [...(s.oneOf ?? []), ...(s.anyOf ?? [])].some((b: Json) => !b.$ref && nullOnly(b));

const UNIONS = [
  ['oneOf', 'one-of'],
  ['anyOf', 'any-of'],
] as const;

interface Branch {
  /** How the change names it: the component, else the discriminator's values, else its position. */
  label: string;
  /** Its component's name, when it is a $ref. */
  ref: string | null;
  /** The values its discriminator property accepts (inline branches). */
  tags: unknown[];
  schema: Json;
}

/**
 * The discriminator of a union: `discriminator.propertyName`, else the one property every branch
 * restricts to an enum (`source: ['ingest']` / `source: ['youtube', ...]`).
 */
function discriminatorOf(doc: Json, union: Json, branches: Json[]): string | null {
  if (union.discriminator?.propertyName) return String(union.discriminator.propertyName);
  const flats = branches.map((b) => flat(doc, b, []));
  const first = Object.keys(flats[0]?.properties ?? {});
  return first.find((name) => flats.every((f) => Array.isArray(f.properties?.[name]?.enum))) ?? null;
}

function branchesOf(doc: Json, union: Json, key: 'oneOf' | 'anyOf'): Branch[] {
  const list = ((union[key] ?? []) as Json[]).filter((b) => b.$ref || !nullOnly(b));
  const tag = discriminatorOf(doc, union, list);
  return list.map((schema, i) => {
    const ref = schema.$ref ? String(schema.$ref).split('/').pop()! : null;
    const f = flat(doc, schema, []);
    const tags: unknown[] = tag ? (f.properties?.[tag]?.enum ?? (f.properties?.[tag]?.const !== undefined ? [f.properties[tag].const] : [])) : [];
    const label = ref ?? (tags.length ? `${tag}=${tags.join('|')}` : f.title ? String(f.title) : `#${i + 1}`);
    return { label, ref, tags, schema };
  });
}

/**
 * Pairs the branches of two unions as oasdiff does: a `$ref` branch with the same component; an
 * inline one with the branch sharing a discriminator value (so a branch whose discriminator enum
 * narrows is the same branch, changed), else the same title, else the same position.
 */
function pairBranches(before: Branch[], after: Branch[]): { pairs: [Branch, Branch][]; removed: Branch[]; added: Branch[] } {
  const free = new Set(after);
  const pairs: [Branch, Branch][] = [];
  const removed: Branch[] = [];
  before.forEach((a, i) => {
    const candidates = [...free];
    const match = a.ref
      ? candidates.find((b) => b.ref === a.ref)
      : (candidates.find((b) => !b.ref && a.tags.length > 0 && b.tags.some((t) => a.tags.includes(t))) ??
        candidates.find((b) => !b.ref && a.tags.length === 0 && b.tags.length === 0 && b.schema.title !== undefined && b.schema.title === a.schema.title) ??
        (a.tags.length === 0 && after[i] && free.has(after[i]) && !after[i].ref && after[i].tags.length === 0 ? after[i] : undefined));
    if (match) {
      free.delete(match);
      pairs.push([a, match]);
    } else removed.push(a);
  });
  return { pairs, removed, added: [...free] };
}

/**
 * oneOf / anyOf (oasdiff's `*-one-of-*`, `*-any-of-*` checks): a request branch removed is breaking
 * (what a client sent is refused), one added is not; an answer branch added is breaking (a client
 * that switches on the variants meets one it does not know), one removed is not. Paired branches
 * are compared like any schema, so a new required property or a narrower discriminator enum in a
 * request branch is breaking by the property rules.
 */
function compareUnions(ctx: Ctx, a: Json, b: Json, where: string, names: string[], depth: number): void {
  const request = ctx.direction === 'request';
  const part = depth === 0 ? 'body' : 'property';
  for (const [key, word] of UNIONS) {
    if (!a[key] && !b[key]) continue;
    const { pairs, removed, added } = pairBranches(branchesOf(ctx.oldDoc, a, key), branchesOf(ctx.newDoc, b, key));
    const named = (x: Branch) => (x.ref && !names.includes(x.ref) ? [...names, x.ref] : names);
    for (const x of removed) add(ctx, request ? 'breaking' : 'info', `${ctx.direction}-${part}-${word}-removed`, `${where}.${key}[${x.label}]`, named(x));
    for (const x of added) add(ctx, request ? 'info' : 'breaking', `${ctx.direction}-${part}-${word}-added`, `${where}.${key}[${x.label}]`, named(x));
    // A branch is read with what its parent requires in both versions (an instance must satisfy
    // both): a property the parent always required is no news when a branch requires it too, and
    // one the parent starts requiring is reported once, at the parent.
    const kept = ((a.required ?? []) as string[]).filter((r) => ((b.required ?? []) as string[]).includes(r));
    const within = (x: Branch): Json => (kept.length ? { allOf: [{ required: kept }, x.schema] } : x.schema);
    for (const [x, y] of pairs) compareSchemas(ctx, within(x), within(y), `${where}.${key}[${x.label}]`, names, depth + 1);
  }
}

function compareSchemas(ctx: Ctx, before: Json | undefined, after: Json | undefined, where: string, names: string[], depth = 0): void {
  if (!before || !after || depth > 12) return;
  const refsA: string[] = [];
  const refsB: string[] = [];
  const a = flat(ctx.oldDoc, before, refsA);
  const b = flat(ctx.newDoc, after, refsB);
  const here = [...names, ...refsB.filter((r) => !names.includes(r))];
  const request = ctx.direction === 'request';
  const ta = types(a);
  const tb = types(b);
  if (ta.length && tb.length && ta.join() !== tb.join()) {
    const widened = ta.every((t) => tb.includes(t)) || (ta.join() === 'integer' && tb.join() === 'number');
    add(ctx, request && widened ? 'info' : 'breaking', `${ctx.direction}-type-changed`, `${where}: ${ta.join('|')} -> ${tb.join('|')}`, here);
    return;
  }
  if (nullable(a) !== nullable(b)) {
    const loosened = nullable(b);
    add(ctx, request === loosened ? 'info' : 'breaking', `${ctx.direction}-property-became-${loosened ? 'nullable' : 'not-nullable'}`, where, here);
  }
  if (Array.isArray(a.enum) || Array.isArray(b.enum)) {
    const ea = (a.enum ?? []) as unknown[];
    const eb = (b.enum ?? []) as unknown[];
    const removed = a.enum ? ea.filter((v) => !b.enum || !eb.includes(v)) : [];
    const added = b.enum ? eb.filter((v) => !a.enum || !ea.includes(v)) : [];
    if (!a.enum && b.enum) add(ctx, request ? 'breaking' : 'info', `${ctx.direction}-enum-added`, `${where}: now one of ${eb.join(', ')}`, here);
    else if (removed.length) add(ctx, request ? 'breaking' : 'info', `${ctx.direction}-enum-value-removed`, `${where}: ${removed.join(', ')}`, here);
    if (a.enum && added.length) add(ctx, request ? 'info' : 'warning', `${ctx.direction}-enum-value-added`, `${where}: ${added.join(', ')}`, here);
  }
  if (request) {
    for (const [key, tighter] of [
      ['maxLength', (x: number, y: number) => y < x],
      ['maximum', (x: number, y: number) => y < x],
      ['maxItems', (x: number, y: number) => y < x],
      ['minLength', (x: number, y: number) => y > x],
      ['minimum', (x: number, y: number) => y > x],
      ['minItems', (x: number, y: number) => y > x],
    ] as const) {
      const x = a[key];
      const y = b[key];
      if (y !== undefined && (x === undefined || tighter(x, y))) add(ctx, 'breaking', `request-${key}-tightened`, `${where}: ${x ?? 'none'} -> ${y}`, here);
    }
    if (b.pattern !== undefined && b.pattern !== a.pattern)
      add(ctx, 'warning', 'request-pattern-changed', `${where}: ${a.pattern ?? 'none'} -> ${b.pattern}`, here);
  }
  const pa = a.properties ?? {};
  const pb = b.properties ?? {};
  const ra = new Set<string>(a.required ?? []);
  const rb = new Set<string>(b.required ?? []);
  for (const name of Object.keys(pa)) {
    const at = `${where}.${name}`;
    const named = [...here, ...refsB.map((r) => `${r}.${name}`)];
    if (!(name in pb)) {
      if (request) add(ctx, 'warning', 'request-property-removed', at, named);
      else
        add(ctx, ra.has(name) ? 'breaking' : 'warning', ra.has(name) ? 'response-required-property-removed' : 'response-optional-property-removed', at, named);
      continue;
    }
    if (!request && ra.has(name) && !rb.has(name)) add(ctx, 'breaking', 'response-property-became-optional', at, named);
    if (request && !ra.has(name) && rb.has(name)) add(ctx, 'breaking', 'request-property-became-required', at, named);
    compareSchemas(ctx, pa[name], pb[name], at, named, depth + 1);
  }
  for (const name of Object.keys(pb)) {
    if (name in pa) continue;
    const named = [...here, ...refsB.map((r) => `${r}.${name}`)];
    add(
      ctx,
      request && rb.has(name) ? 'breaking' : 'info',
      request && rb.has(name) ? 'request-required-property-added' : `${ctx.direction}-property-added`,
      `${where}.${name}`,
      named,
    );
  }
  if (a.items || b.items) compareSchemas(ctx, a.items, b.items, `${where}[]`, here, depth + 1);
  compareUnions(ctx, a, b, where, here, depth);
}

function parameters(doc: Json, item: Json, op: Json): Map<string, Json> {
  const all = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolveRef(doc, p));
  return new Map(all.map((p) => [`${p.in} ${p.name}`, p]));
}

function compareOperation(ctx: Ctx, a: Json, b: Json, itemA: Json, itemB: Json): void {
  ctx.direction = 'request';
  const pa = parameters(ctx.oldDoc, itemA, a);
  const pb = parameters(ctx.newDoc, itemB, b);
  for (const [key, p] of pa) {
    const q = pb.get(key);
    if (!q) add(ctx, p.in === 'path' ? 'breaking' : 'warning', 'request-parameter-removed', key, []);
    else {
      if (!p.required && q.required) add(ctx, 'breaking', 'request-parameter-became-required', key, []);
      compareSchemas(ctx, p.schema, q.schema, key, []);
    }
  }
  for (const [key, q] of pb)
    if (!pa.has(key)) add(ctx, q.required ? 'breaking' : 'info', q.required ? 'new-required-request-parameter' : 'new-optional-request-parameter', key, []);
  const bodyA = resolveRef(ctx.oldDoc, a.requestBody);
  const bodyB = resolveRef(ctx.newDoc, b.requestBody);
  if (!a.requestBody && b.requestBody?.required) add(ctx, 'breaking', 'request-body-added-required', 'body', []);
  if (a.requestBody && b.requestBody && !bodyA.required && bodyB.required) add(ctx, 'breaking', 'request-body-became-required', 'body', []);
  for (const [type, media] of Object.entries<Json>(bodyA.content ?? {})) {
    const other = bodyB.content?.[type];
    if (!other) add(ctx, 'breaking', 'request-body-media-type-removed', `body ${type}`, []);
    else compareSchemas(ctx, media.schema, other.schema, 'body', []);
  }
  ctx.direction = 'response';
  for (const [status, resA] of Object.entries<Json>(a.responses ?? {})) {
    const resB = b.responses?.[status];
    if (!resB) {
      add(ctx, /^2/.test(status) ? 'breaking' : 'warning', 'response-status-removed', `response ${status}`, []);
      continue;
    }
    const ra = resolveRef(ctx.oldDoc, resA);
    const rb = resolveRef(ctx.newDoc, resB);
    for (const [type, media] of Object.entries<Json>(ra.content ?? {})) {
      const other = rb.content?.[type];
      if (!other) add(ctx, 'breaking', 'response-media-type-removed', `response ${status} ${type}`, []);
      else compareSchemas(ctx, media.schema, other.schema, `response ${status}`, []);
    }
    for (const header of Object.keys(ra.headers ?? {}))
      if (!rb.headers?.[header]) add(ctx, 'warning', 'response-header-removed', `response ${status} ${header}`, []);
  }
  const security = (doc: Json, op: Json) => JSON.stringify(op.security ?? doc.security ?? []);
  if (security(ctx.oldDoc, a) !== security(ctx.newDoc, b) || (a['x-required-scope'] ?? null) !== (b['x-required-scope'] ?? null)) {
    add(
      ctx,
      'breaking',
      'security-changed',
      `${security(ctx.oldDoc, a)} ${a['x-required-scope'] ?? ''} -> ${security(ctx.newDoc, b)} ${b['x-required-scope'] ?? ''}`.trim(),
      [],
    );
  }
  if (!a.deprecated && b.deprecated) add(ctx, 'info', 'api-deprecated', 'operation', []);
}

/** Every classified difference from `before` to `after`. */
export function classifyOpenApi(before: Json, after: Json): ApiChange[] {
  const out: ApiChange[] = [];
  const base = serverPath(after) || serverPath(before);
  if (serverPath(before) !== serverPath(after)) {
    out.push({ level: 'breaking', id: 'api-base-path-changed', operation: '*', where: `${serverPath(before)} -> ${serverPath(after)}`, names: ['servers'] });
  }
  for (const [path, itemA] of Object.entries<Json>(before.paths ?? {})) {
    const itemB = after.paths?.[path];
    for (const method of METHODS) {
      if (!itemA[method]) continue;
      const operation = `${method.toUpperCase()} ${base}${path}`;
      const ctx: Ctx = { out, operation, direction: 'request', oldDoc: before, newDoc: after };
      if (!itemB?.[method]) add(ctx, 'breaking', itemB ? 'api-removed' : 'api-path-removed', 'operation', []);
      else compareOperation(ctx, itemA[method], itemB[method], itemA, itemB);
    }
  }
  for (const [path, itemB] of Object.entries<Json>(after.paths ?? {})) {
    for (const method of METHODS) {
      if (itemB[method] && !before.paths?.[path]?.[method])
        out.push({ level: 'info', id: 'api-added', operation: `${method.toUpperCase()} ${base}${path}`, where: 'operation', names: [] });
    }
  }
  return out;
}
