import { useId, useState, type KeyboardEvent } from 'react';
import { cellKey, cellName, gridAxes, stockCell, type ProductFormValues, type StockCell } from './productForm';

interface StockGridProps {
  values: Pick<ProductFormValues, 'sizes' | 'colors' | 'stock' | 'sku'>;
  /** Changes one cell. */
  onCell: (size: string | null, color: string | null, change: Partial<StockCell>) => void;
  /** Sets every cell of the grid to this many units. */
  onSetAll: (units: number) => void;
}

const whole = (text: string) => /^\d+$/.test(text.trim());

/**
 * Stock per variant (issue 22): sizes down, colours across, each cell its units and its SKU. The grid follows the
 * Sizes and Colors fields as they change (a new cell starts at 0); "Set all to" fills every cell at once.
 */
export function StockGrid({ values, onCell, onSetAll }: StockGridProps) {
  const id = useId();
  const [bulk, setBulk] = useState('');
  const { sizes, colors } = gridAxes(values);
  const cells = sizes.flatMap((size) => colors.map((color) => stockCell(values, size, color)));
  const units = cells.map((cell) => (whole(cell.countInStock) ? Number(cell.countInStock) : 0));
  const total = units.reduce((sum, n) => sum + n, 0);
  const soldOut = units.filter((n) => n === 0).length;
  const skuPrefix = values.sku.trim() || 'SKU';

  const applyBulk = () => {
    if (whole(bulk)) onSetAll(Number(bulk));
  };
  // Enter in the bulk box sets the grid, it does not submit the product
  const onBulkKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    applyBulk();
  };

  return (
    <fieldset className="mb-6 rounded-lg border border-gray-200 p-4" data-testid="stock-grid">
      <legend className="px-1 text-sm font-semibold">Stock by size and colour</legend>
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <p className="text-sm text-gray-700" aria-live="polite" data-testid="stock-total">
          Total: {total} {total === 1 ? 'unit' : 'units'}
          {cells.length > 1 && ` in ${cells.length} variants`}
          {soldOut > 0 && `, ${soldOut} sold out`}
        </p>
        <div className="flex items-end gap-2">
          <div>
            <label htmlFor={`${id}-bulk`} className="mb-1 block text-xs font-semibold">
              Set all to
            </label>
            <input
              id={`${id}-bulk`}
              type="number"
              inputMode="numeric"
              min="0"
              step="1"
              value={bulk}
              onChange={(e) => setBulk(e.target.value)}
              onKeyDown={onBulkKey}
              className="w-24 rounded border border-gray-400 bg-white p-1.5"
            />
          </div>
          <button
            type="button"
            onClick={applyBulk}
            disabled={!whole(bulk)}
            className="rounded border border-gray-400 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 disabled:opacity-50"
          >
            Apply to all
          </button>
        </div>
      </div>
      <div className="overflow-x-auto" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="text-left text-sm">
          <caption id={`${id}-caption`} className="sr-only">
            Stock by size and colour: sizes down, colours across
          </caption>
          <thead>
            <tr>
              <th scope="col" className="px-2 py-1 text-xs font-semibold text-gray-600 uppercase">
                Size
              </th>
              {colors.map((color) => (
                <th key={color ?? ''} scope="col" className="px-2 py-1 text-xs font-semibold text-gray-600 uppercase">
                  {color ?? 'Stock'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sizes.map((size) => (
              <tr key={size ?? ''} className="border-t border-gray-200">
                <th scope="row" className="px-2 py-2 font-semibold whitespace-nowrap">
                  {size ?? 'One size'}
                </th>
                {colors.map((color) => {
                  const key = cellKey(size, color);
                  const cell = stockCell(values, size, color);
                  const name = cellName(size, color);
                  const empty = whole(cell.countInStock) && Number(cell.countInStock) === 0;
                  return (
                    <td key={key} className="px-2 py-2 align-top" data-testid="stock-cell">
                      <input
                        type="number"
                        inputMode="numeric"
                        min="0"
                        step="1"
                        required
                        value={cell.countInStock}
                        onChange={(e) => onCell(size, color, { countInStock: e.target.value })}
                        aria-label={`Stock for ${name}`}
                        className={`mb-1 block w-24 rounded border p-1.5 tabular-nums ${empty ? 'border-red-300 bg-red-50' : 'border-gray-400 bg-white'}`}
                      />
                      <input
                        value={cell.sku}
                        maxLength={64}
                        onChange={(e) => onCell(size, color, { sku: e.target.value })}
                        aria-label={`SKU for ${name}`}
                        placeholder={[skuPrefix, size, color].filter(Boolean).join('-')}
                        className="block w-56 rounded border border-gray-300 bg-white p-1 font-mono text-xs"
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-gray-600">
        Each cell is one variant. Leave a SKU empty to have one made from the product&apos;s. A size or colour held by a
        checkout cannot be taken off until the checkout ends.
      </p>
    </fieldset>
  );
}
