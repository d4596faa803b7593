import { REVIEW_RATING_MAX } from '@shop/contracts';

const STAR = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z';

function Star({ className, color }: { className: string; color: string }) {
  return (
    <svg viewBox="0 0 20 20" className={className} fill={color} focusable="false">
      <path d={STAR} />
    </svg>
  );
}

/** Five stars filled to `rating` (decorative: the text beside them says the figure). */
export function Stars({ rating, className = 'h-5 w-5' }: { rating: number; className?: string }) {
  return (
    <span className="inline-flex" aria-hidden="true">
      {Array.from({ length: REVIEW_RATING_MAX }, (_, i) => {
        const fill = Math.max(0, Math.min(1, rating - i));
        return (
          <span key={i} className={`relative inline-block ${className}`}>
            <Star className={className} color="#d1d5db" />
            <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
              <Star className={className} color="#f59e0b" />
            </span>
          </span>
        );
      })}
    </span>
  );
}
