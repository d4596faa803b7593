import type { OrderJson } from '@shop/contracts';

/**
 * The order's parcel: carrier, tracking number, and a link to the carrier's own tracking page (a new tab; the link
 * says where it goes). Nothing for an order without one.
 */
export function ParcelTracking({ order, className = '' }: { order: OrderJson; className?: string }) {
  const t = order.tracking;
  if (!t) return null;
  return (
    <div className={className} data-testid="parcel-tracking">
      <p className="text-gray-700">
        Sent with {t.carrier}, tracking number <span className="font-mono">{t.number}</span>
      </p>
      <a
        href={t.url}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-1 inline-block font-semibold text-blue-700 underline hover:text-blue-900"
      >
        Track your parcel with {t.carrier}
        <span className="sr-only"> (opens {t.carrier}’s website in a new tab)</span>
      </a>
    </div>
  );
}

/** Money PayPal gave back outside the shop's own refunds (a refund made in PayPal, a chargeback). */
export function ExternalRefunds({ order, className = '' }: { order: OrderJson; className?: string }) {
  const refunds = order.externalRefunds ?? [];
  if (!refunds.length) return null;
  const fmt = (amount: number, currency: string) =>
    new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);
  return (
    <ul className={className} data-testid="external-refunds">
      {refunds.map((r) => (
        <li key={r.id} className="text-sm text-amber-900">
          {r.kind === 'refund' ? 'Refunded through PayPal' : 'Payment reversed by PayPal'}: {fmt(r.amount, r.currency)}{' '}
          <span className="text-gray-600">
            on <time dateTime={r.at}>{new Date(r.at).toLocaleDateString('en-GB', { dateStyle: 'medium' })}</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
