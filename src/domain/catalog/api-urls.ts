/**
 * The `url` fields of responses and webhook payloads (docs/decisions.md#events): each is the
 * resource's own partner-API URL, GitHub's convention, so that a client with a key can follow it
 * (a `url` that pointed at no page of this service would lead nowhere).
 */
export const PARTNER_API_PATH = '/api/v1';

export function eventApiUrl(publicUrl: string, code: string): string {
  return `${publicUrl}${PARTNER_API_PATH}/events/${encodeURIComponent(code)}`;
}

export function fighterApiUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}${PARTNER_API_PATH}/fighters/${encodeURIComponent(slug)}`;
}
