import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { CATEGORIES, PRODUCT_LIST_DEFAULT_SORT, sortParam, type ProductJson } from '@shop/contracts';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Price } from '@/components/Price';
import { deleteProduct, fetchAdminProducts, selectAdminProducts } from '@/features/admin/adminProductsSlice';
import { FilterSelect, ListToolbar, Pager, SearchBox, useListView } from '@/features/admin/AdminListControls';
import { AdminHeading, Empty, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { Cell, DataTable, Row, RowHeader, sortableColumns } from '@/features/admin/AdminTable';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

/** The exact confirmation (docs/product.md#roles). */
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
      <Cell label="Added" className="whitespace-nowrap tabular-nums">
        {ADDED.format(new Date(product.createdAt))}
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

const ADDED = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

const PRODUCT_COLUMNS = [
  { label: 'Image' },
  { label: 'Name', sortField: 'name' },
  { label: 'Price', align: 'right' as const, sortField: 'price' },
  { label: 'SKU' },
  { label: 'Stock', align: 'right' as const, sortField: 'countInStock' },
  { label: 'Added', sortField: 'createdAt' },
  { label: 'Sold-out variants', align: 'right' as const },
  { label: 'Actions' },
];

/** What the list takes besides `page` (packages/contracts admin-lists.ts). */
const LIST_PARAMS = ['limit', 'q', 'category', 'published', 'lowStock', 'sort'] as const;
const DEFAULT_SORT = sortParam(PRODUCT_LIST_DEFAULT_SORT);
const CATEGORY_OPTIONS = [['', 'All categories'], ...CATEGORIES.map((c) => [c, c] as const)] as const;
const STATUS_OPTIONS = [
  ['', 'All'],
  ['true', 'Published'],
  ['false', 'Draft'],
] as const;

/**
 * /admin/products (docs/product.md#admin-area): every product, published or not, a page at a time — searched (name,
 * SKU, brand), filtered and sorted by the server, the view in the query string; edit, delete after confirming, add.
 */
export default function AdminProductsPage() {
  usePageMeta('Product management');
  const dispatch = useAppDispatch();
  const { list, total, shown: answered } = useAppSelector(selectAdminProducts);
  const view = useListView(LIST_PARAMS, { sort: DEFAULT_SORT });
  const key = new URLSearchParams(view.params).toString();
  const load = () => void dispatch(fetchAdminProducts(view.params));
  useEffect(() => {
    void dispatch(fetchAdminProducts(Object.fromEntries(new URLSearchParams(key))));
  }, [dispatch, key]);
  const filtered = ['q', 'category', 'published', 'lowStock'].some((name) => view.get(name) !== '');
  const shown = list.status !== 'failed' && total !== null && answered !== null;

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
      <ListToolbar>
        <SearchBox
          label="Search products"
          placeholder="Name, SKU or brand"
          value={view.get('q')}
          onSearch={(q) => view.set({ q })}
        />
        <FilterSelect
          label="Category"
          value={view.get('category')}
          options={CATEGORY_OPTIONS}
          onChange={(category) => view.set({ category })}
        />
        <FilterSelect
          label="Status"
          value={view.get('published')}
          options={STATUS_OPTIONS}
          onChange={(published) => view.set({ published })}
        />
        <label className="flex items-center gap-2 text-sm font-semibold">
          <input
            type="checkbox"
            checked={view.get('lowStock') === 'true'}
            onChange={(e) => view.set({ lowStock: e.target.checked ? 'true' : '' })}
            className="h-4 w-4"
          />
          Low stock
        </label>
      </ListToolbar>
      {list.status === 'failed' && <ErrorNotice message={list.error ?? 'Something went wrong'} onRetry={load} />}
      {list.status === 'loading' && !list.data.length && <Loading label="Loading products..." />}
      {list.status === 'succeeded' && !list.data.length && (
        <Empty>{filtered ? 'No products match.' : 'No Products found.'}</Empty>
      )}
      {list.data.length > 0 && list.status !== 'failed' && (
        <DataTable
          label="Products"
          columns={sortableColumns(PRODUCT_COLUMNS, view.get('sort'), (sort) => view.set({ sort }))}
          busy={list.status === 'loading' || answered?.key !== key}
        >
          {list.data.map((product) => (
            <ProductRow key={product._id} product={product} />
          ))}
        </DataTable>
      )}
      {shown && (
        <Pager
          label="Products pages"
          page={answered.page}
          limit={answered.limit}
          total={total}
          onPage={(page) => view.set({ page: String(page) })}
        />
      )}
    </>
  );
}
