import type { ServerResponse } from 'node:http';

export interface PageMeta {
  page: number;
  per_page: number;
  last_page: number;
}

/**
 * The `Link` header of a paginated list (RFC 8288, as GitHub sends it): `first` and `last` always,
 * `prev` after page 1, `next` before the last page. Absolute URLs on PUBLIC_URL with the request's
 * own query string, only `page` replaced, so a client follows them without rebuilding its filters.
 */
export function pageLinks(publicUrl: string, url: string, meta: PageMeta): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const to = (page: number) => {
    const params = new URLSearchParams(query);
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
export function setPageLinks(res: ServerResponse, publicUrl: string, url: string, meta: PageMeta): void {
  res.setHeader('Link', pageLinks(publicUrl, url, meta));
}
