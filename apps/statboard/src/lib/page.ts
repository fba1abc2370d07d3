/** A page of a list, as `{data, meta}` answers carry it. */
export interface Page<T> {
  data: T[];
  meta: { current_page: number; per_page: number; total: number };
}

/**
 * The row offset of a page, or null for a page so far past any end that it is empty: the database is never
 * asked for an offset it cannot take.
 */
export function pageOffset(page: number, perPage: number): number | null {
  const offset = (page - 1) * perPage;
  return Number.isSafeInteger(offset) && offset < 2 ** 31 ? offset : null;
}
