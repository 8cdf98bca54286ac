/** Keyset pagination over time-sortable ids, newest first. */
export interface PageQuery {
  limit: number;
  /** The id of the last item of the previous page. */
  cursor: string | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** Rows were fetched with LIMIT limit+1: the extra row only says whether another page exists. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
