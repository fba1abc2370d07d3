import { Fragment, type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { Empty, ErrorNotice, Loading } from './ui.tsx';

/** A query of a list (`{data: [...]}`), as `useQuery` returns it: the table shows its rows, its loading, its error. */
export interface ListQuery<T> {
  isPending: boolean;
  error: unknown;
  data?: { data: readonly T[] } | undefined;
}

/** A column of a `DataTable`. */
export interface Column<T> {
  /** The heading; on narrow screens, the label of the field in each card. */
  label: string;
  /** The heading is read but not shown (a column of buttons, say). */
  hideLabel?: boolean;
  cell: (row: T) => ReactNode;
  /** A second line under the cell's value, small and quiet (a key's prefix, a record's raw action). */
  detail?: (row: T) => ReactNode;
  /** The column that names the row (`<th scope="row">`): the title of its card on narrow screens. */
  rowHeader?: boolean;
  /** Right-aligned, with figures of one width. */
  numeric?: boolean;
  /**
   * How wide the column must be to read well, in rem: its least width as a table (else its heading's), and for
   * the sum of the columns (7 rem a column without one, 5 a numeric one) below which the rows become cards.
   */
  width?: number;
}

/** A button of a row, named with the row ("Revoke Mod uploads") unless `name` says otherwise. */
export interface RowAction {
  label: string;
  onClick: () => void;
  /** The accessible name, when the label and the row's name do not say enough. */
  name?: string;
  danger?: boolean;
  disabled?: boolean;
}

/** A row that opens to show more (a record's changes, a delivery's attempts) under it. */
export interface RowDetails<T> {
  /** The toggle's text when closed, and when open. */
  show: string;
  hide: string;
  content: (row: T) => ReactNode;
}

const REM = 16;
/** Room for one button of a row, in rem. */
const ACTION_WIDTH = 5;

/**
 * True while the wrapper is narrower than `minRem`, or than the table in it needs at its narrowest (measured as a
 * table whatever the layout shown, so new rows or a wider window bring the table back). Measured before the
 * browser paints, and again whenever the wrapper or the table changes size, so the layout never jumps.
 */
function useCards(minRem: number, shown: boolean) {
  const wrap = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const [cards, setCards] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` mounts the table, which is then observed
  useLayoutEffect(() => {
    const w = wrap.current;
    const t = table.current;
    if (!w || !t) return;
    const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || REM;
    /** The table's width laid out as a table: the class that makes cards is off while it is read. */
    const natural = () => {
      const asCards = w.classList.contains(CARDS);
      if (asCards) w.classList.remove(CARDS);
      const width = t.scrollWidth;
      if (asCards) w.classList.add(CARDS);
      return width;
    };
    const check = () => {
      const room = w.clientWidth;
      if (room > 0) setCards(room < minRem * rem || natural() > room + 1);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(w);
    observer.observe(t);
    return () => observer.disconnect();
  }, [minRem, shown]);
  return { wrap, table, cards };
}

/** The wrapper's class while the rows are cards. */
const CARDS = 'as-cards';

/**
 * The console's table of records. Wide enough, a table; narrower (a phone, a column of a page), each row becomes
 * a card: the row's name as its title, every other field under its label, its buttons below, so nothing is cut
 * off and no page scrolls sideways. The elements keep their table roles in both layouts for screen readers.
 * A row's buttons (`actions`) sit in its last cell, named for the row; `details` adds a toggle that opens a row
 * below it (an expandable row).
 */
export function DataTable<T>({
  caption,
  query,
  error,
  errorTitle,
  rows: given,
  columns,
  rowKey = (row) => (row as { id: string }).id,
  rowName,
  actions,
  details,
  current,
  loading: givenLoading = false,
  empty,
  tall = false,
}: {
  /** What the table lists (read by screen readers, not shown). */
  caption: string;
  /** The list's query: its rows, while it loads, and its error. Or `rows` and `loading`. */
  query?: ListQuery<T>;
  /** Another error to show above the table (of an action of its rows), besides the query's. */
  error?: unknown;
  errorTitle?: string;
  rows?: readonly T[] | undefined;
  columns: readonly (Column<T> | false | null)[];
  /** The row's identity; by default its `id`. */
  rowKey?: (row: T) => string;
  /** How a row is called in its buttons' names ("Actions for Mod uploads"). */
  rowName: (row: T) => string;
  actions?: (row: T) => readonly (RowAction | false | null)[];
  details?: RowDetails<T>;
  /** The row the page is about (`aria-current`). */
  current?: (row: T) => boolean;
  loading?: boolean;
  /** Said instead of an empty table. */
  empty: ReactNode;
  /** Scrolls within itself beyond about 30 rows' height. */
  tall?: boolean;
}) {
  const rows = given ?? query?.data?.data;
  const loading = givenLoading || (query?.isPending ?? false);
  const cols = columns.filter((c): c is Column<T> => Boolean(c));
  const [open, setOpen] = useState<string | null>(null);
  const maxActions = Math.max(0, ...(rows ?? []).map((r) => (actions?.(r) ?? []).filter(Boolean).length));
  const buttons = maxActions + (details ? 1 : 0);
  const minRem =
    cols.reduce((sum, c) => sum + (c.width ?? (c.numeric ? 5 : 7)), 0) + (buttons > 0 ? buttons * ACTION_WIDTH : 0);
  const shown = !loading && rows !== undefined && rows.length > 0;
  const { wrap, table, cards } = useCards(minRem, shown);
  const id = useId();
  const notice = <ErrorNotice error={query?.error ?? error} title={errorTitle} />;
  if (loading) return <Loading lines={4} />;
  if (!rows || rows.length === 0) {
    return (
      <>
        {notice}
        {query?.error ? null : <Empty>{empty}</Empty>}
      </>
    );
  }
  const span = cols.length + (buttons > 0 ? 1 : 0);
  return (
    <>
      {notice}
      <div
        ref={wrap}
        className={`data-table${cards ? ` ${CARDS}` : ''}${tall ? ' tall' : ''}`}
        data-layout={cards ? 'cards' : 'table'}
      >
        {/* Explicit roles: a table laid out as cards (display: block) keeps its semantics in every browser. */}
        {/* biome-ignore lint/a11y/noRedundantRoles: see above */}
        <table ref={table} role="table">
          <caption className="visually-hidden">{caption}</caption>
          {/* biome-ignore lint/a11y/noRedundantRoles: see above */}
          <thead role="rowgroup">
            {/* biome-ignore lint/a11y/noRedundantRoles: see above */}
            <tr role="row">
              {cols.map((c) => (
                <th
                  key={c.label}
                  scope="col"
                  // biome-ignore lint/a11y/noRedundantRoles: see above
                  role="columnheader"
                  className={c.numeric ? 'num' : undefined}
                  style={c.width ? { minWidth: `${c.width}rem` } : undefined}
                >
                  {c.hideLabel ? <span className="visually-hidden">{c.label}</span> : c.label}
                </th>
              ))}
              {buttons > 0 ? (
                // biome-ignore lint/a11y/noRedundantRoles: see above
                <th scope="col" role="columnheader">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          {/* biome-ignore lint/a11y/noRedundantRoles: see above */}
          <tbody role="rowgroup">
            {rows.map((row) => {
              const key = rowKey(row);
              const name = rowName(row);
              const isOpen = details !== undefined && open === key;
              const detailsId = `${id}-${key}`;
              const rowActions = (actions?.(row) ?? []).filter((a): a is RowAction => Boolean(a));
              return (
                <Fragment key={key}>
                  <tr
                    // biome-ignore lint/a11y/noRedundantRoles: see above
                    role="row"
                    aria-current={current?.(row) ? 'true' : undefined}
                    className={isOpen ? 'open' : undefined}
                  >
                    {cols.map((c) =>
                      c.rowHeader ? (
                        // biome-ignore lint/a11y/noRedundantRoles: see above
                        <th key={c.label} scope="row" role="rowheader" className="dt-title">
                          <Cell column={c} row={row} />
                        </th>
                      ) : (
                        // biome-ignore lint/a11y/noRedundantRoles: see above
                        <td key={c.label} role="cell" className={c.numeric ? 'num' : undefined}>
                          <span className="dt-label" aria-hidden="true">
                            {c.label}
                          </span>
                          <span className="dt-value">
                            <Cell column={c} row={row} />
                          </span>
                        </td>
                      ),
                    )}
                    {buttons > 0 ? (
                      // biome-ignore lint/a11y/noRedundantRoles: see above
                      <td role="cell" className="dt-actions">
                        {rowActions.length > 0 || details ? (
                          // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not of form fields
                          <div role="group" aria-label={`Actions for ${name}`} className="row-actions">
                            {rowActions.map((a) => (
                              <button
                                key={a.label}
                                type="button"
                                className={a.danger ? 'danger' : undefined}
                                disabled={a.disabled}
                                aria-label={a.name ?? `${a.label} ${name}`}
                                onClick={a.onClick}
                              >
                                {a.label}
                              </button>
                            ))}
                            {details ? (
                              <button
                                type="button"
                                aria-expanded={isOpen}
                                aria-controls={isOpen ? detailsId : undefined}
                                onClick={() => setOpen(isOpen ? null : key)}
                              >
                                {isOpen ? details.hide : details.show}
                              </button>
                            ) : null}
                          </div>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                  {isOpen ? (
                    <ExpandableRow id={detailsId} span={span}>
                      {details.content(row)}
                    </ExpandableRow>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** A cell's value, and its second line when the column has one. */
function Cell<T>({ column, row }: { column: Column<T>; row: T }) {
  const detail = column.detail?.(row);
  return (
    <>
      {column.cell(row)}
      {detail ? <span className="dt-detail small muted block">{detail}</span> : null}
    </>
  );
}

/** The row a toggle opens under its row: one cell across the table (under the card, on narrow screens). */
export function ExpandableRow({ id, span, children }: { id: string; span: number; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: see DataTable
    <tr id={id} role="row" className="dt-details">
      {/* biome-ignore lint/a11y/noRedundantRoles: see DataTable */}
      <td role="cell" colSpan={span}>
        {children}
      </td>
    </tr>
  );
}
