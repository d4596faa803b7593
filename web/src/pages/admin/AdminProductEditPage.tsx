import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import {
  createProduct,
  fetchAdminProduct,
  selectAdminProducts,
  updateProduct,
  type ProductInput,
} from '@/features/admin/adminProductsSlice';
import { AdminHeading, ErrorNotice, Loading } from '@/features/admin/AdminStates';
import { ProductForm } from '@/features/admin/ProductForm';
import { notify } from '@/lib/notify';
import { usePageMeta } from '@/lib/usePageMeta';

const back = (
  <Link to="/admin/products" className="font-semibold text-blue-700 underline hover:text-blue-900">
    Back to products
  </Link>
);

/** /admin/products/new: Add product (ours: the original shop only edits). */
function NewProduct() {
  usePageMeta('Add product');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const saving = useAppSelector((s) => selectAdminProducts(s).saving);

  const save = async (input: ProductInput) => {
    const product = await dispatch(createProduct(input)).unwrap();
    notify.success(`${product.name} created`);
    navigate('/admin/products');
  };

  return (
    <>
      <AdminHeading title="Add Product">{back}</AdminHeading>
      <ProductForm saving={saving} submitLabel="Create Product" onSubmit={save} />
    </>
  );
}

/** /admin/products/:id/edit: the form starts from the server's copy of this product (never a previous one's). */
function EditProduct({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { product, saving } = useAppSelector(selectAdminProducts);
  usePageMeta(product.data?._id === id ? `Edit ${product.data.name}` : 'Edit product');
  const load = () => void dispatch(fetchAdminProduct(id));
  useEffect(() => {
    void dispatch(fetchAdminProduct(id));
  }, [dispatch, id]);

  const save = async (input: ProductInput) => {
    const updated = await dispatch(updateProduct({ id, changes: input })).unwrap();
    notify.success(`${updated.name} updated`);
    navigate('/admin/products'); // only once saved: the list already shows the new values
  };

  const ready = product.status === 'succeeded' && product.data?._id === id;
  return (
    <>
      <AdminHeading title="Edit Product">{back}</AdminHeading>
      {product.status === 'failed' && <ErrorNotice message={product.error ?? 'Something went wrong'} onRetry={load} />}
      {!ready && product.status !== 'failed' && <Loading label="Loading the product..." />}
      {ready && product.data && (
        <ProductForm
          key={product.data._id}
          product={product.data}
          saving={saving}
          submitLabel="Update Product"
          onSubmit={save}
        />
      )}
    </>
  );
}

export default function AdminProductEditPage() {
  const { id } = useParams();
  return id ? <EditProduct id={id} /> : <NewProduct />;
}
