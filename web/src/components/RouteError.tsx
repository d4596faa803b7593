import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { usePageMeta } from '@/lib/usePageMeta';

interface RouteErrorProps {
  status?: number;
  statusText?: string;
  error?: unknown;
  onReset?: () => void;
}

/**
 * The router's error screen: "Unexpected Application Error!" with the status or the message (docs/product.md#messages).
 */
export function RouteError({ status, statusText, error, onReset }: RouteErrorProps) {
  usePageMeta(status ? `${status} ${statusText ?? ''}`.trim() : 'Error');
  const detail = status
    ? `${status} ${statusText ?? ''}`.trim()
    : error instanceof Error
      ? error.message
      : String(error ?? 'Unknown error');
  return (
    <main className="mx-auto max-w-2xl px-4 py-16" data-testid="route-error">
      <h1 className="mb-4 text-2xl font-bold">Unexpected Application Error!</h1>
      <h2 className="mb-8 text-lg text-gray-700 italic">{detail}</h2>
      <a
        href="/"
        onClick={onReset}
        className="inline-block rounded-lg bg-black px-5 py-3 font-semibold text-white hover:bg-gray-800"
      >
        Back to the shop
      </a>
    </main>
  );
}

class Boundary extends Component<{ children: ReactNode; resetKey: string }, { error: unknown; key: string }> {
  override state = { error: undefined as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { error: unknown; key: string }) {
    // navigating elsewhere clears the error screen
    return props.resetKey !== state.key ? { error: undefined, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unexpected application error', error, info.componentStack);
  }

  override render() {
    if (this.state.error !== undefined) return <RouteError error={this.state.error} />;
    return this.props.children;
  }
}

/** Catches a render error (or a page chunk that failed to load) anywhere below and shows the error screen. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary resetKey={location.pathname}>{children}</Boundary>;
}
