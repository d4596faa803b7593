import { useId, useState, type FormEvent } from 'react';
import {
  CARRIER_RULES,
  CARRIERS,
  isCarrier,
  TRACKING_MESSAGES,
  trackingNumberProblem,
  type Carrier,
  type OrderJson,
} from '@shop/contracts';
import { useAppDispatch } from '@/app/hooks';
import { notify } from '@/lib/notify';
import { updateOrderStatus } from './adminOrdersSlice';

const field = 'w-full rounded border bg-white p-2';

/**
 * Marking an order Shipped: the carrier and the parcel's tracking number, checked as the server checks them (the
 * carrier's format) before anything is sent, each message beside its field; the server's refusal shown above them.
 * Also corrects the tracking of an order already Shipped.
 */
export function ShipOrderForm({ order, onDone }: { order: OrderJson; onDone: () => void }) {
  const dispatch = useAppDispatch();
  const ids = { carrier: useId(), number: useId(), carrierError: useId(), numberError: useId(), hint: useId() };
  const [carrier, setCarrier] = useState<Carrier | ''>(order.tracking?.carrier ?? '');
  const [number, setNumber] = useState(order.tracking?.number ?? '');
  const [errors, setErrors] = useState<{ carrier?: string; number?: string }>({});
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const correcting = order.status === 'Shipped';

  const check = (c: Carrier | '', n: string) => ({
    ...(c ? {} : { carrier: TRACKING_MESSAGES.carrierRequired }),
    ...(c && trackingNumberProblem(c, n) ? { number: trackingNumberProblem(c, n) } : {}),
    ...(!c && !n.trim() ? { number: TRACKING_MESSAGES.numberRequired } : {}),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check(carrier, number);
    setErrors(found);
    setServerError(undefined);
    if (found.carrier || found.number || !carrier) {
      document.getElementById(found.carrier ? ids.carrier : ids.number)?.focus();
      return;
    }
    setSaving(true);
    try {
      await dispatch(updateOrderStatus({ id: order._id, status: 'Shipped', carrier, trackingNumber: number })).unwrap();
      notify.success(
        correcting
          ? `Tracking of order #${order._id.slice(-6)} updated`
          : `Order #${order._id.slice(-6)} is now Shipped`,
      );
      onDone();
    } catch (message) {
      setServerError(String(message));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4 p-4" aria-label="Shipment">
      {serverError && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {serverError}
        </p>
      )}
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={ids.carrier} className="font-semibold">
          Carrier
        </label>
        <select
          id={ids.carrier}
          value={carrier}
          onChange={(e) => {
            const next = isCarrier(e.target.value) ? e.target.value : '';
            setCarrier(next);
            if (errors.carrier) setErrors((x) => ({ ...x, carrier: undefined }));
          }}
          aria-invalid={errors.carrier ? true : undefined}
          aria-describedby={errors.carrier ? ids.carrierError : undefined}
          required
          className={`${field} ${errors.carrier ? 'border-red-600' : 'border-gray-400'}`}
        >
          <option value="">Choose a carrier</option>
          {CARRIERS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        {errors.carrier && (
          <p id={ids.carrierError} className="text-red-700">
            {errors.carrier}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={ids.number} className="font-semibold">
          Tracking number
        </label>
        <input
          id={ids.number}
          value={number}
          onChange={(e) => {
            setNumber(e.target.value);
            // the message goes as the admin corrects the number (checked again on submit); never on blur, where the
            // layout moving under a click on the button would lose the click
            if (errors.number) setErrors((x) => ({ ...x, number: undefined }));
          }}
          autoComplete="off"
          spellCheck={false}
          placeholder={carrier ? CARRIER_RULES[carrier].example : undefined}
          aria-invalid={errors.number ? true : undefined}
          aria-describedby={[ids.hint, errors.number ? ids.numberError : ''].filter(Boolean).join(' ')}
          required
          className={`${field} font-mono ${errors.number ? 'border-red-600' : 'border-gray-400'}`}
        />
        <p id={ids.hint} className="text-gray-600">
          {carrier ? `${carrier}: ${CARRIER_RULES[carrier].shape}` : 'Choose the carrier first'}
        </p>
        {errors.number && (
          <p id={ids.numberError} className="text-red-700">
            {errors.number}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={saving}
        className="w-full rounded bg-black px-4 py-2 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
      >
        {saving ? 'Saving...' : correcting ? 'Save tracking' : 'Mark as Shipped'}
      </button>
    </form>
  );
}
