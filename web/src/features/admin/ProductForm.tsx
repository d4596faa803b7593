import { useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import {
  BRANDS,
  CATEGORIES,
  EDIT_FORM_COLORS,
  GENDERS,
  MATERIALS,
  SIZES,
  type ProductImageJson,
  type ProductJson,
} from '@shop/contracts';
import { errorMessage } from '@/api/client';
import { notify } from '@/lib/notify';
import { uploadImage, type ProductInput } from './adminProductsSlice';
import { cellKey, formValues, gridAxes, productInput, stockCell, type ProductFormValues } from './productForm';
import { StockGrid } from './StockGrid';

/** The server keeps at most this many images per product (docs/api.md#products). */
const MAX_IMAGES = 12;
const input = 'w-full rounded border border-gray-400 bg-white p-2';
const label = 'mb-1 block text-sm font-semibold';

function Row({
  id,
  text,
  hint,
  required,
  children,
}: {
  id: string;
  text: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="mb-4">
      <label htmlFor={id} className={label}>
        {text}
        {required && (
          <span className="text-red-700" aria-hidden>
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A save the server refused for the images (e.g. one hosted elsewhere): said beside them, not atop the form. */
const isAboutImages = (message: string) => /\bimages?\b/i.test(message);

/**
 * Images: upload through POST /api/upload (a preview while it goes), alt text, remove. Only the shop's own images:
 * the shop's Content-Security-Policy shows images from the shop only, and the catalog refuses others (issue 27).
 */
function ImagesField({
  images,
  setImages,
  productName,
  onUploading,
  refused,
  refusedBox,
}: {
  images: ProductImageJson[];
  setImages: (update: (images: ProductImageJson[]) => ProductImageJson[]) => void;
  productName: string;
  onUploading: (uploading: boolean) => void;
  /** The server's message when it refused the images on save. */
  refused: string | null;
  refusedBox: RefObject<HTMLParagraphElement>;
}) {
  const [pending, setPending] = useState<{ preview: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const full = images.length >= MAX_IMAGES;

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again after a failure
    if (!file) return;
    const preview = URL.createObjectURL(file);
    setPending({ preview, name: file.name });
    setError(null);
    onUploading(true);
    try {
      const url = await uploadImage(file);
      setImages((list) => [...list, { url, altText: productName.trim() }]);
      notify.success('Image uploaded');
    } catch (err) {
      const message = errorMessage(err);
      setError(message);
      notify.error(message);
    } finally {
      URL.revokeObjectURL(preview);
      setPending(null);
      onUploading(false);
    }
  };

  return (
    <fieldset className="mb-6 rounded-lg border border-gray-200 p-4" aria-describedby={`${id}-own`}>
      <legend className="px-1 text-sm font-semibold">Images</legend>
      <p id={`${id}-own`} className="mb-3 text-xs text-gray-600">
        Upload the images here: the shop shows only its own, so an image hosted on another site is refused.
      </p>
      {(error ?? refused) && (
        <p
          ref={refusedBox}
          tabIndex={-1}
          role="alert"
          className="mb-3 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800"
        >
          {error ?? refused}
        </p>
      )}
      {images.length === 0 && !pending && <p className="mb-3 text-sm text-gray-600">No images yet.</p>}
      <ul className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="product-images">
        {images.map((image, i) => (
          <li
            key={`${image.url}-${i}`}
            className="flex gap-3 rounded border border-gray-200 p-2"
            data-testid="product-image"
          >
            <img
              src={image.url}
              alt={image.altText || `Image ${i + 1}`}
              className="h-20 w-20 shrink-0 rounded border border-gray-200 object-cover"
            />
            <div className="min-w-0 flex-1">
              <label htmlFor={`${id}-alt-${i}`} className="mb-1 block text-xs font-semibold">
                Alt text for image {i + 1}
              </label>
              <input
                id={`${id}-alt-${i}`}
                value={image.altText}
                maxLength={300}
                onChange={(e) =>
                  setImages((list) => list.map((img, j) => (j === i ? { ...img, altText: e.target.value } : img)))
                }
                className="mb-2 w-full rounded border border-gray-400 p-1 text-sm"
              />
              <button
                type="button"
                onClick={() => setImages((list) => list.filter((_, j) => j !== i))}
                className="rounded border border-red-300 px-2 py-1 text-xs font-semibold text-red-800 hover:bg-red-50"
              >
                Remove image {i + 1}
              </button>
            </div>
          </li>
        ))}
        {pending && (
          <li className="flex items-center gap-3 rounded border border-dashed border-gray-300 p-2" role="status">
            <img src={pending.preview} alt="" className="h-20 w-20 shrink-0 rounded object-cover opacity-60" />
            <span className="text-sm text-gray-700">Uploading {pending.name}...</span>
          </li>
        )}
      </ul>
      <label htmlFor={`${id}-file`} className={label}>
        Upload image
      </label>
      <input
        ref={fileInput}
        id={`${id}-file`}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif"
        onChange={(e) => void upload(e)}
        disabled={pending !== null || full}
        aria-describedby={`${id}-file-hint`}
        className="block w-full text-sm file:mr-3 file:rounded file:border-0 file:bg-gray-800 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-gray-700"
      />
      <p id={`${id}-file-hint`} className="mt-1 text-xs text-gray-600">
        {full
          ? `A product has at most ${MAX_IMAGES} images: remove one to add another.`
          : 'JPEG, PNG, WebP or GIF, up to 5 MB. The first image is the one the shop shows first.'}
      </p>
    </fieldset>
  );
}

interface ProductFormProps {
  product?: ProductJson | null;
  saving: boolean;
  submitLabel: string;
  /** Resolves when saved; rejects with the server's message. */
  onSubmit: (input: ProductInput) => Promise<void>;
}

/** Name, description and category required; sizes typed comma-separated and trimmed (docs/product.md#validation). */
export function ProductForm({ product, saving, submitLabel, onSubmit }: ProductFormProps) {
  const [values, setValues] = useState<ProductFormValues>(() => formValues(product));
  const [error, setError] = useState<string | null>(null);
  const [imagesRefused, setImagesRefused] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const errorBox = useRef<HTMLParagraphElement>(null);
  const imagesBox = useRef<HTMLParagraphElement>(null);
  const id = useId();
  const field = (key: keyof ProductFormValues) => `${id}-${key}`;
  const set =
    (key: Exclude<keyof ProductFormValues, 'colors' | 'images' | 'isPublished' | 'stock'>) =>
    (event: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [key]: event.target.value }));
  // colours the product has from outside the edit list (e.g. Navy) stay offered, so saving never drops them
  const colorChoices = [
    ...EDIT_FORM_COLORS,
    ...values.colors.filter((c) => !(EDIT_FORM_COLORS as readonly string[]).includes(c)),
  ];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setImagesRefused(null);
    try {
      await onSubmit(productInput(values));
    } catch (reason) {
      const message = String(reason);
      const aboutImages = isAboutImages(message);
      (aboutImages ? setImagesRefused : setError)(message);
      requestAnimationFrame(() => (aboutImages ? imagesBox : errorBox).current?.focus());
    }
  };

  const toggleColor = (color: string) =>
    setValues((v) => ({
      ...v,
      colors: v.colors.includes(color) ? v.colors.filter((c) => c !== color) : [...v.colors, color],
    }));

  return (
    <form
      onSubmit={submit}
      className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm md:p-6"
      data-testid="product-form"
    >
      {error && (
        <p
          ref={errorBox}
          tabIndex={-1}
          role="alert"
          className="mb-4 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <p className="mb-4 text-sm text-gray-600">
        Fields marked <span className="text-red-700">*</span> are required.
      </p>
      <Row id={field('name')} text="Product Name" required>
        <input
          id={field('name')}
          required
          maxLength={200}
          value={values.name}
          onChange={set('name')}
          className={input}
        />
      </Row>
      <Row id={field('description')} text="Description" required>
        <textarea
          id={field('description')}
          required
          rows={4}
          maxLength={5000}
          value={values.description}
          onChange={set('description')}
          className={input}
        />
      </Row>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Row id={field('price')} text="Price (£)" required>
          <input
            id={field('price')}
            type="number"
            inputMode="decimal"
            required
            min="0.01"
            step="0.01"
            value={values.price}
            onChange={set('price')}
            className={input}
          />
        </Row>
        <Row id={field('originalPrice')} text="Original price (£)" hint="Shown struck through when above the price.">
          <input
            id={field('originalPrice')}
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={values.originalPrice}
            onChange={set('originalPrice')}
            aria-describedby={`${field('originalPrice')}-hint`}
            className={input}
          />
        </Row>
      </div>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Row id={field('sku')} text="SKU" hint={product ? undefined : 'Leave empty to have one made.'}>
          <input
            id={field('sku')}
            maxLength={64}
            value={values.sku}
            onChange={set('sku')}
            aria-describedby={product ? undefined : `${field('sku')}-hint`}
            className={input}
          />
        </Row>
        <Row id={field('category')} text="Category" required>
          <select id={field('category')} required value={values.category} onChange={set('category')} className={input}>
            <option value="">Select a category</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Row>
        <Row id={field('brand')} text="Brand">
          <input
            id={field('brand')}
            list={`${id}-brands`}
            maxLength={100}
            value={values.brand}
            onChange={set('brand')}
            className={input}
          />
          <datalist id={`${id}-brands`}>
            {BRANDS.map((b) => (
              <option key={b} value={b} />
            ))}
          </datalist>
        </Row>
        <Row id={field('material')} text="Material">
          <input
            id={field('material')}
            list={`${id}-materials`}
            maxLength={100}
            value={values.material}
            onChange={set('material')}
            className={input}
          />
          <datalist id={`${id}-materials`}>
            {MATERIALS.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </Row>
        <Row id={field('gender')} text="Gender">
          <select id={field('gender')} value={values.gender} onChange={set('gender')} className={input}>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </Row>
        <Row id={field('collections')} text="Collections" hint="e.g. Game Day">
          <input
            id={field('collections')}
            maxLength={100}
            value={values.collections}
            onChange={set('collections')}
            aria-describedby={`${field('collections')}-hint`}
            className={input}
          />
        </Row>
      </div>
      <Row
        id={field('sizes')}
        text="Sizes (comma-separated)"
        hint={`For example: S, M, L. Sizes: ${SIZES.join(', ')}.`}
      >
        <input
          id={field('sizes')}
          value={values.sizes}
          onChange={set('sizes')}
          aria-describedby={`${field('sizes')}-hint`}
          placeholder="S, M, L"
          className={input}
        />
      </Row>
      <fieldset className="mb-4">
        <legend className={label}>Colors</legend>
        <div className="flex flex-wrap gap-2">
          {colorChoices.map((color) => (
            <label
              key={color}
              className="flex cursor-pointer items-center gap-2 rounded border border-gray-300 px-3 py-1.5 text-sm has-[:checked]:border-gray-900 has-[:checked]:bg-gray-900 has-[:checked]:text-white"
            >
              <input
                type="checkbox"
                checked={values.colors.includes(color)}
                onChange={() => toggleColor(color)}
                className="h-4 w-4"
              />
              {color}
            </label>
          ))}
        </div>
      </fieldset>
      <StockGrid
        values={values}
        onCell={(size, color, change) =>
          setValues((v) => ({
            ...v,
            stock: { ...v.stock, [cellKey(size, color)]: { ...stockCell(v, size, color), ...change } },
          }))
        }
        onSetAll={(units) =>
          setValues((v) => {
            const { sizes, colors } = gridAxes(v);
            const stock = { ...v.stock };
            for (const size of sizes)
              for (const color of colors)
                stock[cellKey(size, color)] = { ...stockCell(v, size, color), countInStock: String(units) };
            return { ...v, stock };
          })
        }
      />
      <ImagesField
        images={values.images}
        setImages={(update) => setValues((v) => ({ ...v, images: update(v.images) }))}
        productName={values.name}
        onUploading={setUploading}
        refused={imagesRefused}
        refusedBox={imagesBox}
      />
      <div className="mb-6 flex items-center gap-2">
        <input
          id={field('isPublished')}
          type="checkbox"
          checked={values.isPublished}
          onChange={(e) => setValues((v) => ({ ...v, isPublished: e.target.checked }))}
          className="h-4 w-4"
        />
        <label htmlFor={field('isPublished')} className="font-semibold">
          Published (shown in the shop)
        </label>
      </div>
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={saving || uploading}
          className="rounded-lg bg-green-700 px-6 py-2.5 font-semibold text-white hover:bg-green-800 disabled:opacity-60"
        >
          {saving ? 'Saving...' : submitLabel}
        </button>
        <Link
          to="/admin/products"
          className="rounded-lg border border-gray-400 px-6 py-2.5 font-semibold hover:bg-gray-100"
        >
          Cancel
        </Link>
      </div>
    </form>
  );
}
