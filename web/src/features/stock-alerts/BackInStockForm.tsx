import { useId, useState, type FormEvent } from 'react';
import type { ProductJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';
import { useAppSelector } from '@/app/hooks';

interface BackInStockFormProps {
  product: ProductJson;
  /** The size and colour picked on the page (the form starts from them). */
  size: string;
  color: string;
}

/**
 * "Email me when it's back", for a sold-out size and colour: a guest gives an address, a customer is told at the
 * account's. Collapsed behind a button until wanted; the answer (the same whether or not the address had asked
 * already) is read out by the status region.
 */
export function BackInStockForm({ product, size: pickedSize, color: pickedColor }: BackInStockFormProps) {
  const user = useAppSelector((s) => s.auth.user);
  const id = useId();
  const [open, setOpen] = useState(false);
  const [size, setSize] = useState(pickedSize);
  const [color, setColor] = useState(pickedColor);
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // follow the page's pick while the form is closed
  const shownSize = open ? size : pickedSize;
  const shownColor = open ? color : pickedColor;
  const soldOut = product.variants.filter((v) => v.countInStock <= 0);
  if (!soldOut.length) return null;
  const variant = product.variants.find((v) => (v.size ?? '') === shownSize && (v.color ?? '') === shownColor);
  const complete = (!product.sizes.length || !!shownSize) && (!product.colors.length || !!shownColor);
  const inStock = complete && !!variant && variant.countInStock > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    if (!complete) return setError('Choose the size and colour you want.');
    if (inStock) return setError('That size and colour is in stock: add it to your cart.');
    setSending(true);
    try {
      const { data } = await api.post<{ message: string }>('/api/stock-alerts', {
        productId: product._id,
        size: shownSize,
        color: shownColor,
        ...(user ? {} : { email }),
      });
      setDone(data.message);
    } catch (e) {
      setError(errorMessage(e, 'Could not save your request: try again'));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="mb-8 rounded-lg border border-gray-300 p-4" data-testid="back-in-stock">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        onClick={() => {
          setSize(shownSize);
          setColor(shownColor);
          setOpen(!open);
        }}
        className="w-full text-left text-sm font-semibold underline-offset-2 hover:underline"
      >
        Sold out in your size? Email me when it's back
      </button>
      {open && (
        <form id={`${id}-form`} onSubmit={(e) => void submit(e)} className="mt-3 space-y-3" noValidate>
          <div className="flex flex-wrap gap-3">
            {product.sizes.length > 0 && (
              <label className="text-sm">
                <span className="mb-1 block font-medium">Size</span>
                <select
                  value={size}
                  onChange={(e) => setSize(e.target.value)}
                  className="rounded border border-gray-400 px-2 py-1.5"
                >
                  <option value="">Choose…</option>
                  {product.sizes.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {product.colors.length > 0 && (
              <label className="text-sm">
                <span className="mb-1 block font-medium">Colour</span>
                <select
                  value={color}
                  onChange={(e) => setColor(e.target.value)}
                  className="rounded border border-gray-400 px-2 py-1.5"
                >
                  <option value="">Choose…</option>
                  {product.colors.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          {user ? (
            <p className="text-sm text-gray-700">We'll email you at {user.email}.</p>
          ) : (
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Email</span>
              <input
                type="email"
                required
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className="w-full rounded border border-gray-400 px-3 py-2"
              />
            </label>
          )}
          <button
            type="submit"
            disabled={sending}
            className="rounded-lg bg-black px-4 py-2 text-sm font-semibold text-white hover:bg-gray-800 disabled:bg-gray-500"
          >
            {sending ? 'Sending...' : 'Email me when it’s back'}
          </button>
          <p className="min-h-5 text-sm" role="status">
            {done && <span className="text-green-800">{done}</span>}
          </p>
          <p className="text-sm text-red-700" role="alert">
            {error}
          </p>
        </form>
      )}
    </div>
  );
}
