import type { QueryParam } from './operation';
import { params } from './query';

/** `page` and `per_page`, which every list operation of both doors takes (docs/decisions.md#pagination). */
export const PAGING = {
  page: { component: 'Page', parser: params.page, prose: 'Page number, from 1.' },
  per_page: { component: 'PerPage', parser: params.per_page, prose: 'Page size, 1 to 100.' },
} satisfies Record<string, QueryParam>;
