// The admin area's tables. On a wide screen, a table; on a phone (under 640 px), each row becomes a card whose
// cells are labelled lines, so that every action is on screen without scrolling sideways. Table semantics are
// restated with ARIA roles, because some browsers drop them once CSS changes a table's display.
import type { ReactNode } from 'react';

export interface Column {
  label: string;
  align?: 'right';
  /** A sortable column: its state (aria-sort) and what a click on its header does (see sortableColumns). */
  sort?: { direction: 'ascending' | 'descending' | 'none'; onSort: () => void };
}

const ARROWS = { ascending: '▲', descending: '▼', none: '↕' } as const;

const cellBase = 'px-4 py-3 align-middle';
const cellStacked =
  'max-sm:flex max-sm:min-h-9 max-sm:items-center max-sm:justify-between max-sm:gap-4 max-sm:px-0 max-sm:py-1 max-sm:text-right ' +
  'max-sm:before:mr-auto max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:tracking-wide ' +
  'max-sm:before:text-gray-600 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]';

/** A named table whose rows become cards on a phone (wider screens scroll it sideways in its own box if need be). */
export function DataTable({
  label,
  columns,
  children,
  busy = false,
}: {
  label: string;
  columns: Column[];
  children: ReactNode;
  /** Another page is on its way: the rows shown are the previous view's (aria-busy). */
  busy?: boolean;
}) {
  return (
    <div
      className="rounded-lg border border-gray-200 bg-white shadow-sm sm:overflow-x-auto"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table
        role="table"
        aria-label={label}
        aria-busy={busy || undefined}
        className={`w-full text-left text-sm text-gray-700 max-sm:block ${busy ? 'cursor-progress' : ''}`}
      >
        <thead role="rowgroup" className="border-b border-gray-200 bg-gray-100 max-sm:sr-only">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.label}
                role="columnheader"
                scope="col"
                aria-sort={column.sort?.direction}
                className={`${cellBase} text-xs font-semibold tracking-wide whitespace-nowrap text-gray-700 uppercase ${column.align === 'right' ? 'text-right' : ''}`}
              >
                {column.sort ? (
                  <button
                    type="button"
                    onClick={column.sort.onSort}
                    className="inline-flex items-center gap-1 uppercase hover:text-gray-900 hover:underline"
                  >
                    {column.label}
                    <span aria-hidden="true" className="text-[0.65rem]">
                      {ARROWS[column.sort.direction]}
                    </span>
                  </button>
                ) : (
                  column.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block">
          {children}
        </tbody>
      </table>
    </div>
  );
}

export function Row({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <tr
      role="row"
      data-testid={testId}
      className="border-b border-gray-200 last:border-0 hover:bg-gray-50 max-sm:block max-sm:px-4 max-sm:py-3"
    >
      {children}
    </tr>
  );
}

/** The cell that names the row (a product, a user, an order): the card's title on a phone. */
export function RowHeader({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <th
      role="rowheader"
      scope="row"
      className={`${cellBase} font-medium text-gray-900 max-sm:block max-sm:px-0 max-sm:pt-0 max-sm:pb-2 max-sm:text-base ${className}`}
    >
      {children}
    </th>
  );
}

/** A cell; `label` is its column's name, shown beside it on a phone. */
export function Cell({
  label,
  align,
  className = '',
  children,
}: {
  label: string;
  align?: 'right';
  className?: string;
  children: ReactNode;
}) {
  return (
    <td
      role="cell"
      data-label={label}
      className={`${cellBase} ${cellStacked} ${align === 'right' ? 'sm:text-right' : ''} ${className}`}
    >
      {children}
    </td>
  );
}

/**
 * Columns whose `sortField` makes them sortable by a list's `sort` parameter (`field` ascending, `-field`
 * descending): each gets its aria-sort state and, pressed, asks for that field ascending, or reversed when current.
 */
export function sortableColumns(
  columns: ReadonlyArray<Column & { sortField?: string }>,
  current: string,
  onSort: (sort: string) => void,
): Column[] {
  return columns.map(({ sortField, ...column }) => {
    if (!sortField) return column;
    const direction = current === sortField ? 'ascending' : current === `-${sortField}` ? 'descending' : 'none';
    return {
      ...column,
      sort: { direction, onSort: () => onSort(current === sortField ? `-${sortField}` : sortField) },
    };
  });
}
