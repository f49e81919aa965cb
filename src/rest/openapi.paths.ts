/** Every path of the partner API, relative to `/api/v1`, in document order. */
export const PARTNER_API_PATHS = [
  '/rankings',
  '/divisions',
  '/fighters',
  '/fighters/{slug}',
  '/events',
  '/events/{code}',
  '/events/{code}/results',
  '/results',
  '/verify/{number}',
  '/me',
  '/openapi.json',
] as const;
