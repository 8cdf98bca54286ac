import type { Page } from './store/page.js';

export interface ListQuery {
  limit?: number;
  cursor?: string;
}

export interface ListResponse<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function pageQuery(q: ListQuery): { limit: number; cursor: string | null } {
  return { limit: q.limit ?? 50, cursor: q.cursor ?? null };
}

export function toListResponse<R extends { id: string }, T>(page: Page<R>, map: (row: R) => T): ListResponse<T> {
  const last = page.items.at(-1);
  return { object: 'list', data: page.items.map(map), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
}
