import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchLowStock, selectAdminProducts } from './adminProductsSlice';
import { Empty, ErrorNotice, Loading } from './AdminStates';
import { Cell, DataTable, Row, RowHeader } from './AdminTable';

const COLUMNS = [
  { label: 'Product' },
  { label: 'Size' },
  { label: 'Colour' },
  { label: 'SKU' },
  { label: 'Units', align: 'right' as const },
];

/** The dashboard's variants at or below the low-stock threshold, lowest first, each a link to its product's form. */
export function LowStockPanel() {
  const dispatch = useAppDispatch();
  const { data, status, error } = useAppSelector((s) => selectAdminProducts(s).lowStock);
  const load = () => void dispatch(fetchLowStock());
  useEffect(() => {
    void dispatch(fetchLowStock());
  }, [dispatch]);

  return (
    <section aria-labelledby="low-stock" className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm">
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="low-stock" className="text-xl font-bold">
          Low stock
        </h2>
        {data && (
          <p className="text-sm text-gray-600">
            Variants with {data.threshold} {data.threshold === 1 ? 'unit' : 'units'} or fewer
          </p>
        )}
      </div>
      {status === 'failed' && <ErrorNotice message={error ?? 'Something went wrong'} onRetry={load} />}
      {!data && status !== 'failed' && <Loading label="Loading low-stock variants..." />}
      {data && status !== 'failed' && !data.variants.length && <Empty>No low-stock variants</Empty>}
      {data && status !== 'failed' && data.variants.length > 0 && (
        <DataTable label="Low-stock variants" columns={COLUMNS}>
          {data.variants.map((v) => (
            <Row key={v.sku} testId="low-stock-row">
              <RowHeader className="whitespace-normal">
                <Link
                  to={`/admin/products/${v.productId}/edit`}
                  className="text-blue-700 underline hover:text-blue-900"
                >
                  {v.name}
                </Link>
              </RowHeader>
              <Cell label="Size">{v.size ?? '—'}</Cell>
              <Cell label="Colour">{v.color ?? '—'}</Cell>
              <Cell label="SKU" className="font-mono text-xs">
                {v.sku}
              </Cell>
              <Cell
                label="Units"
                align="right"
                className={`tabular-nums ${v.countInStock <= 0 ? 'font-semibold text-red-700' : ''}`}
              >
                {v.countInStock}
                {v.countInStock <= 0 && <span className="font-normal"> (sold out)</span>}
              </Cell>
            </Row>
          ))}
        </DataTable>
      )}
    </section>
  );
}
