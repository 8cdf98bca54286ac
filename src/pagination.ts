import type { listQuery } from './http-schemas/common.js';
import type { Validated } from './http-schemas/validated.js';
import type { Page, PageQuery } from './store/page.js';

/** The page members every list query has; a resource's query adds its filters (see `listQuery`). */
export type ListQuery = Validated<ReturnType<typeof listQuery<{}>>>;

export interface ListResponse<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function pageQuery(q: ListQuery): PageQuery {
  return { limit: q.limit, cursor: q.cursor ?? null };
}

export function toListResponse<R extends { id: string }, T>(page: Page<R>, map: (row: R) => T): ListResponse<T> {
  const last = page.items.at(-1);
  return { object: 'list', data: page.items.map(map), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
}
