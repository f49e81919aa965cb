/**
 * The sport's closed vocabularies and identifier shapes, declared once: the doors validate
 * requests with them and the OpenAPI documents describe them from the same values.
 */
export const DISCIPLINES = ['kickboxing', 'mma', 'boxing', 'muay-thai'] as const;
export type Discipline = (typeof DISCIPLINES)[number];
export const CATEGORIES = ['pro', 'am'] as const;
export const GENDERS = ['m', 'f'] as const;
export const CONTINENTS = ['africa', 'asia', 'europe', 'north-america', 'south-america', 'oceania'] as const;
export const FIGHTER_STATUSES = ['licensed', 'applicant', 'suspended'] as const;
export const EVENT_LEVELS = ['national', 'international', 'continental', 'worldcup', 'world'] as const;

/** A country or scope slug as the partner API accepts it in a query. */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
/** A weight-class slug (67kg, 63-5kg, 91kg-plus): at most 20 characters. */
export const WEIGHT_CLASS_MAX_LENGTH = 20;
export const WEIGHT_CLASS_PATTERN = `^[a-z0-9-]{1,${WEIGHT_CLASS_MAX_LENGTH}}$`;

/** The states of a fighter's licence as the catalogue shows them (`none`: never licensed). */
export const LICENCE_STATUSES = ['active', 'suspended', 'expired', 'pending', 'none'] as const;
export const EVENT_STATUSES = ['scheduled', 'live', 'completed', 'cancelled'] as const;
/** The outcome of a bout for one fighter: win, loss, draw, no contest. */
export const BOUT_OUTCOMES = ['W', 'L', 'D', 'NC'] as const;
export const VERIFICATION_STATUSES = ['ACTIVE', 'SUSPENDED', 'EXPIRED', 'PENDING VERIFICATION', 'NO MATCHING RECORD'] as const;
/** Which kind of document number a verification matched. */
export const VERIFICATION_MATCHES = ['fighter_code', 'licence_no', 'certificate_no'] as const;
