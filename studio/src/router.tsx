import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * The studio's few routes, on the History API (no router library): every path lives under
 * /studio, and the service answers index.html for any of them (a reload keeps the screen).
 */
export const BASE = '/studio';

export type Route =
  | { name: 'sign-in' }
  | { name: 'home' }
  | { name: 'broadcasts'; slug: string }
  | { name: 'broadcast'; slug: string; id: string }
  | { name: 'keys'; slug: string }
  | { name: 'webhooks'; slug: string }
  | { name: 'deliveries'; slug: string; id: string }
  | { name: 'not-found' };

export function parse(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: 'home' };
  if (parts[0] === 'sign-in' && parts.length === 1) return { name: 'sign-in' };
  if (parts[0] !== 'channels' || !parts[1]) return { name: 'not-found' };
  const slug = parts[1];
  const [section, id] = parts.slice(2);
  if (parts.length > 4) return { name: 'not-found' };
  if (!section || section === 'broadcasts') return id ? { name: 'broadcast', slug, id } : { name: 'broadcasts', slug };
  if (section === 'api-keys' && !id) return { name: 'keys', slug };
  if (section === 'webhooks') return id ? { name: 'deliveries', slug, id } : { name: 'webhooks', slug };
  return { name: 'not-found' };
}

export const paths = {
  signIn: () => `${BASE}/sign-in`,
  broadcasts: (slug: string) => `${BASE}/channels/${encodeURIComponent(slug)}/broadcasts`,
  broadcast: (slug: string, id: string) => `${BASE}/channels/${encodeURIComponent(slug)}/broadcasts/${encodeURIComponent(id)}`,
  keys: (slug: string) => `${BASE}/channels/${encodeURIComponent(slug)}/api-keys`,
  webhooks: (slug: string) => `${BASE}/channels/${encodeURIComponent(slug)}/webhooks`,
  deliveries: (slug: string, id: string) => `${BASE}/channels/${encodeURIComponent(slug)}/webhooks/${encodeURIComponent(id)}`,
};

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

export function useLocation(): { pathname: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((t) => t + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { pathname: location.pathname, search: new URLSearchParams(location.search) };
}

/** An anchor that navigates within the app (a real href: open in a new tab works). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
