// Real PayPal buttons (GET /api/config says mode "paypal"). Loaded lazily: only the payment step needs the SDK.
import { DISPATCH_ACTION, PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { paypalAmount } from './pay';

interface Props {
  clientId: string;
  /** Named in the purchase unit (custom_id): PayPal's webhook tells the server which checkout a capture paid. */
  checkoutId: string;
  total: number;
  onPaid: (details: { id: string } & Record<string, unknown>) => void;
  onFailed: (error: unknown) => void;
}

function Buttons({ clientId, checkoutId, total, onPaid, onFailed }: Props) {
  const [{ isPending, isRejected }, dispatch] = usePayPalScriptReducer();
  if (isRejected) {
    // a script that cannot load says so instead of leaving an empty box (docs/pitfalls.md#paypal-script-not-loading)
    return (
      <div role="alert" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
        <p className="mb-2">PayPal could not be loaded. Check your connection or ad blocker, then retry.</p>
        <button
          type="button"
          className="rounded bg-black px-4 py-2 font-semibold text-white"
          onClick={() =>
            dispatch({ type: DISPATCH_ACTION.RESET_OPTIONS, value: { clientId, currency: 'GBP', intent: 'capture' } })
          }
        >
          Retry
        </button>
      </div>
    );
  }
  return (
    <>
      {isPending && <p className="text-gray-600">Loading PayPal...</p>}
      <PayPalButtons
        style={{ layout: 'vertical' }}
        forceReRender={[total, checkoutId]}
        createOrder={(_, actions) =>
          actions.order.create({
            intent: 'CAPTURE',
            purchase_units: [{ custom_id: checkoutId, amount: { currency_code: 'GBP', value: paypalAmount(total) } }],
          })
        }
        onApprove={async (_, actions) => {
          const details = await actions.order?.capture();
          if (!details?.id) throw new Error('PayPal returned no order');
          onPaid({ id: details.id, status: details.status });
        }}
        onError={onFailed}
      />
    </>
  );
}

export default function PayPalPayment(props: Props) {
  return (
    <PayPalScriptProvider options={{ clientId: props.clientId, currency: 'GBP', intent: 'capture' }}>
      <Buttons {...props} />
    </PayPalScriptProvider>
  );
}
