import type { OrderJson, OrderLineJson } from '@shop/contracts';
import { Price } from '@/components/Price';

/** "Size: M | Color: Green" (what the line has of each). */
export const lineOptions = (line: Pick<OrderLineJson, 'size' | 'color'>) =>
  [line.size && `Size: ${line.size}`, line.color && `Color: ${line.color}`].filter(Boolean).join(' | ');

/** The variant's SKU, when the line has one (orders placed before variants have none). */
export function LineSku({ sku }: { sku?: string }) {
  if (!sku) return null;
  return (
    <span className="block font-mono text-xs text-gray-600" data-testid="line-sku">
      SKU: {sku}
    </span>
  );
}

/** The items of an order: image, name, size/colour, the variant's SKU, unit price, quantity, line total. */
export function OrderLines({ lines }: { lines: OrderLineJson[] }) {
  return (
    <>
      {/* phones: one card per line; wider screens: the table */}
      <ul className="divide-y divide-gray-200 border-y border-gray-200 sm:hidden">
        {lines.map((line) => (
          <li key={`${line.productId}|${line.size}|${line.color}`} className="flex gap-3 py-3 text-sm">
            <img
              src={line.image}
              alt=""
              width={56}
              height={56}
              className="h-14 w-14 rounded bg-gray-100 object-cover"
            />
            <div className="min-w-0 flex-1">
              <p className="font-medium text-gray-900">{line.name}</p>
              {lineOptions(line) && <p className="text-gray-600">{lineOptions(line)}</p>}
              <LineSku sku={line.sku} />
              <p className="text-gray-600">
                {line.quantity} × <Price value={line.price} />
              </p>
            </div>
            <Price value={line.price * line.quantity} className="font-semibold whitespace-nowrap" />
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="min-w-full text-left text-sm text-gray-700">
          <thead className="bg-gray-100 text-xs text-gray-800 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2">
                Item
              </th>
              <th scope="col" className="px-4 py-2">
                Unit Price
              </th>
              <th scope="col" className="px-4 py-2">
                Quantity
              </th>
              <th scope="col" className="px-4 py-2">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={`${line.productId}|${line.size}|${line.color}`} className="border-b border-gray-200">
                <td className="flex items-center gap-3 px-4 py-3">
                  <img
                    src={line.image}
                    alt=""
                    width={48}
                    height={48}
                    className="h-12 w-12 rounded bg-gray-100 object-cover"
                  />
                  <span>
                    <span className="block font-medium text-gray-900">{line.name}</span>
                    <span className="block text-gray-600">{lineOptions(line)}</span>
                    <LineSku sku={line.sku} />
                  </span>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <Price value={line.price} />
                </td>
                <td className="px-4 py-3">{line.quantity}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <Price value={line.price * line.quantity} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

// The parcel and money PayPal gave back: here beside the lines, in the module the order pages already share (a module
// of their own became a shared chunk that the build merged into the first route's).

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
