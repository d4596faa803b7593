import { formatPrice } from '@/lib/money';

interface PriceProps {
  value: number;
  className?: string;
  /** Shown struck through beside the price (a product's originalPrice), when above it. */
  original?: number;
}

/** A price in pounds sterling, through the shop's one Intl.NumberFormat('en-GB', GBP). */
export function Price({ value, className, original }: PriceProps) {
  const was = original !== undefined && original > value ? original : undefined;
  return (
    <span className={className}>
      {was !== undefined && (
        <>
          <span className="sr-only">Was </span>
          <s className="mr-2 font-normal text-gray-500">{formatPrice(was)}</s>
          <span className="sr-only">now </span>
        </>
      )}
      <span>{formatPrice(value)}</span>
    </span>
  );
}
