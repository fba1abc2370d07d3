import type { Static } from '@sinclair/typebox';
import type { Pagination } from '#src/http/schemas.ts';

/** A page of a list, as `{data, meta}` answers carry it (`meta`: the Pagination component). */
export interface Page<T> {
  data: T[];
  meta: Static<typeof Pagination>;
}

/**
 * The row offset of a page, or null for a page so far past any end that it is empty: the database is never
 * asked for an offset it cannot take.
 */
export function pageOffset(page: number, perPage: number): number | null {
  const offset = (page - 1) * perPage;
  return Number.isSafeInteger(offset) && offset < 2 ** 31 ? offset : null;
}
