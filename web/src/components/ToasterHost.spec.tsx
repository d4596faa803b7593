import { act, fireEvent, render, screen } from '@testing-library/react';
import { CART_TOAST } from '@/features/cart/cartSlice';
import { notify, resetNotifyForTests } from '@/lib/notify';
import { ToasterHost } from './ToasterHost';

// sonner removes a closed toast from the page this long after closing it (its exit animation)
const EXIT = 400;

async function showCartToast(message: string): Promise<HTMLElement> {
  render(<ToasterHost />);
  act(() => notify.success(message, CART_TOAST));
  const text = await screen.findByText(message);
  return text.closest('li') as HTMLElement;
}

const wait = (ms: number) => act(() => jest.advanceTimersByTime(ms));

describe('toasts (WCAG 2.2.1: they wait while read)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    resetNotifyForTests();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('closes on its own after its duration (cart toasts last 1 s)', async () => {
    await showCartToast('Product added to cart!');
    await wait(CART_TOAST.duration + EXIT);
    expect(screen.queryByText('Product added to cart!')).not.toBeInTheDocument();
  });

  it('is announced: it sits in a polite live region', async () => {
    const toast = await showCartToast('Product added to cart!');
    expect(toast.closest('[aria-live]')).toHaveAttribute('aria-live', 'polite');
  });

  it('waits while the pointer is over it, and closes after its duration once the pointer leaves', async () => {
    const toast = await showCartToast('Product added to cart!');
    fireEvent.mouseEnter(toast);
    await wait(10 * CART_TOAST.duration);
    expect(screen.getByText('Product added to cart!')).toBeInTheDocument();
    fireEvent.mouseLeave(toast);
    await wait(CART_TOAST.duration + EXIT);
    expect(screen.queryByText('Product added to cart!')).not.toBeInTheDocument();
  });

  it('waits while it has keyboard focus, and closes after its duration once focus leaves', async () => {
    const toast = await showCartToast('Please select a size and color before adding to cart.');
    act(() => toast.focus());
    await wait(10 * CART_TOAST.duration);
    expect(screen.getByText('Please select a size and color before adding to cart.')).toBeInTheDocument();
    act(() => toast.blur());
    await wait(CART_TOAST.duration + EXIT);
    expect(screen.queryByText('Please select a size and color before adding to cart.')).not.toBeInTheDocument();
  });

  it('keeps waiting while it has focus even when the pointer passes over it and leaves', async () => {
    const toast = await showCartToast('Product added to cart!');
    act(() => toast.focus());
    fireEvent.mouseEnter(toast);
    fireEvent.mouseLeave(toast);
    await wait(10 * CART_TOAST.duration);
    expect(screen.getByText('Product added to cart!')).toBeInTheDocument();
    act(() => toast.blur());
    await wait(CART_TOAST.duration + EXIT);
    expect(screen.queryByText('Product added to cart!')).not.toBeInTheDocument();
  });
});
