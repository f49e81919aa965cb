/** Every path of the TV API, relative to `/api/tv`, in document order. */
export const TV_API_PATHS = [
  '/live',
  '/upcoming',
  '/channels',
  '/channels/{slug}',
  '/broadcasts/{broadcast}',
  '/me',
  '/broadcasts',
  '/broadcasts/{id}/go-live',
  '/broadcasts/{id}/end',
  '/broadcasts/{id}/rotate-stream-key',
  '/broadcasts/{id}/health',
  '/openapi.json',
] as const;

export type TvApiPath = (typeof TV_API_PATHS)[number];
