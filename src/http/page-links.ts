import type { ServerResponse } from 'node:http';

export interface PageMeta {
  page: number;
  per_page: number;
  last_page: number;
}

/**
 * The `Link` header of a paginated list (RFC 8288, as GitHub sends it): `first` and `last` always,
 * `prev` after page 1, `next` before the last page. Absolute URLs on PUBLIC_URL with the request's
 * own query, only `page` replaced, so a client follows them without rebuilding its filters. Only
 * the parameters the endpoint knows (`known`) are kept: unknown ones are ignored by the endpoint,
 * and echoing them four times over would let a long query make a header no client accepts.
 */
export function pageLinks(publicUrl: string, url: string, meta: PageMeta, known: readonly string[]): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const kept = [...query].filter(([name]) => name !== 'page' && known.includes(name));
  const to = (page: number) => {
    const params = new URLSearchParams(kept);
    params.set('page', String(page));
    return `<${publicUrl}${path}?${params.toString()}>`;
  };
  const last = Math.max(1, meta.last_page);
  const links = [`${to(1)}; rel="first"`];
  if (meta.page > 1) links.push(`${to(Math.min(meta.page - 1, last))}; rel="prev"`);
  if (meta.page < last) links.push(`${to(meta.page + 1)}; rel="next"`);
  links.push(`${to(last)}; rel="last"`);
  return links.join(', ');
}

/** Sets the header; `url` is the full request URL (express's originalUrl, or a fast path's req.url). */
export function setPageLinks(res: ServerResponse, publicUrl: string, url: string, meta: PageMeta, known: readonly string[]): void {
  res.setHeader('Link', pageLinks(publicUrl, url, meta, known));
}
