import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ProductJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { deleteProduct, fetchAdminProducts, selectAdminProducts } from '@/features/admin/adminProductsSlice';
import { AdminHeading, Empty, ErrorNotice, ListFilter, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader } from '@/features/admin/AdminTable';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

/** SPEC §6's exact confirmation. */
export const DELETE_PRODUCT_CONFIRMATION = 'Are you sure you want to delete the Product?';

const button = 'inline-block rounded px-3 py-1.5 font-semibold text-white disabled:opacity-60';

function ProductRow({ product }: { product: ProductJson }) {
  const dispatch = useAppDispatch();
  const deleting = useAppSelector((s) => selectAdminProducts(s).deleting.includes(product._id));
  const image = product.images[0];
  const variants = product.variants?.length ?? 0;
  // counted here rather than with the shop's stock helpers, which then stay in the shop's own chunks
  const soldOut = (product.variants ?? []).filter((v) => v.countInStock <= 0).length;

  const remove = async () => {
    if (!window.confirm(DELETE_PRODUCT_CONFIRMATION)) return;
    try {
      await dispatch(deleteProduct(product._id)).unwrap();
      notify.success(`${product.name} deleted`);
    } catch (message) {
      notify.error(String(message));
    }
  };

  return (
    <Row testId="product-row">
      <Cell label="Image" className="max-sm:hidden!">
        {image ? (
          <img
            src={image.url}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            className="h-12 w-12 rounded border border-gray-200 object-cover"
          />
        ) : (
          <span className="flex h-12 w-12 items-center justify-center rounded border border-dashed border-gray-300 text-[10px] text-gray-600">
            No image
          </span>
        )}
      </Cell>
      <RowHeader className="max-w-xs whitespace-normal">
        <span className="flex items-center gap-3">
          {image && (
            <img
              src={image.url}
              alt=""
              width={48}
              height={48}
              loading="lazy"
              className="h-12 w-12 shrink-0 rounded border border-gray-200 object-cover sm:hidden"
            />
          )}
          <span>
            {product.name}
            {!product.isPublished && (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900">
                Draft
              </span>
            )}
          </span>
        </span>
      </RowHeader>
      <Cell label="Price" align="right" className="tabular-nums">
        <Price value={product.price} />
      </Cell>
      <Cell label="SKU" className="font-mono text-xs">
        {product.sku}
      </Cell>
      <Cell
        label="Stock"
        align="right"
        className={`tabular-nums ${product.countInStock === 0 ? 'font-semibold text-red-700' : ''}`}
      >
        {product.countInStock === 0 ? 'Out of stock' : product.countInStock}
      </Cell>
      <Cell
        label="Sold-out variants"
        align="right"
        className={`tabular-nums ${soldOut > 0 ? 'font-semibold text-amber-800' : 'text-gray-600'}`}
      >
        {soldOut} of {variants}
      </Cell>
      <Cell label="Actions" className="whitespace-nowrap">
        <span>
          <Link
            to={`/admin/products/${product._id}/edit`}
            aria-label={`Edit ${product.name}`}
            className={`${button} mr-2 bg-blue-700 hover:bg-blue-800`}
          >
            Edit
          </Link>
          <button
            type="button"
            onClick={() => void remove()}
            disabled={deleting}
            aria-label={`Delete ${product.name}`}
            className={`${button} bg-red-600 hover:bg-red-700`}
          >
            {deleting ? 'Deleting...' : 'Delete'}
          </button>
        </span>
      </Cell>
    </Row>
  );
}

const PRODUCT_COLUMNS = [
  { label: 'Image' },
  { label: 'Name' },
  { label: 'Price', align: 'right' as const },
  { label: 'SKU' },
  { label: 'Stock', align: 'right' as const },
  { label: 'Sold-out variants', align: 'right' as const },
  { label: 'Actions' },
];

/** /admin/products (SPEC §6): every product, published or not; edit, delete after confirming, add. */
export default function AdminProductsPage() {
  usePageMeta('Product management');
  const dispatch = useAppDispatch();
  const { list } = useAppSelector(selectAdminProducts);
  const [query, setQuery] = useState('');
  const load = () => void dispatch(fetchAdminProducts());
  useEffect(() => {
    void dispatch(fetchAdminProducts());
  }, [dispatch]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return list.data;
    return list.data.filter((p) => p.name.toLowerCase().includes(q) || p.sku.toLowerCase().includes(q));
  }, [list.data, query]);

  return (
    <>
      <AdminHeading title="Product Management">
        <Link
          to="/admin/products/new"
          className="rounded-lg bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800"
        >
          Add product
        </Link>
      </AdminHeading>
      {list.status === 'failed' && <ErrorNotice message={list.error ?? 'Something went wrong'} onRetry={load} />}
      {list.status === 'loading' && !list.data.length && <Loading label="Loading products..." />}
      {list.status === 'succeeded' && !list.data.length && <Empty>No Products found.</Empty>}
      {list.data.length > 0 && (
        <>
          <ListFilter
            value={query}
            onChange={setQuery}
            placeholder="Name or SKU"
            shown={shown.length}
            total={list.data.length}
            noun={['product', 'products']}
          />
          {shown.length === 0 ? (
            <Empty>No Products found.</Empty>
          ) : (
            <DataTable label="Products" columns={PRODUCT_COLUMNS}>
              {shown.map((product) => (
                <ProductRow key={product._id} product={product} />
              ))}
            </DataTable>
          )}
        </>
      )}
    </>
  );
}
