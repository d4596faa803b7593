import { useCallback, useEffect, useState } from 'react';
import {
  ratingSummary,
  REVIEW_MESSAGES,
  type AdminReviewJson,
  type MyReviewJson,
  type ProductJson,
  type ReviewBody,
  type ReviewJson,
} from '@shop/contracts';
import { errorMessage } from '@/api/client';
import { useAppSelector } from '@/app/hooks';
import { formatDate } from '@/lib/dates';
import { notify } from '@/lib/notify';
import { ReviewForm } from './ReviewForm';
import { reviewsApi } from './reviewsApi';
import { Stars } from './Stars';

type ListedReview = ReviewJson & Partial<Pick<AdminReviewJson, 'hidden'>>;

interface ProductReviewsProps {
  product: ProductJson;
}

/**
 * The product page's Reviews section (issue 27), loaded lazily below the product: the average with stars, the reviews
 * newest first with Load more, the signed-in customer's form when they may review (a delivered order holds the
 * product, and they have not reviewed it), and for admins every review, hidden ones too, with Hide / Unhide.
 * What depends on the visitor is fetched after mount, so the server's HTML and the first client render agree.
 */
export default function ProductReviews({ product }: ProductReviewsProps) {
  const user = useAppSelector((s) => s.auth.user);
  const isAdmin = user?.role === 'admin';
  const [summary, setSummary] = useState({ rating: product.rating, numReviews: product.numReviews });
  const [reviews, setReviews] = useState<ListedReview[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState<'loading' | 'idle' | 'failed'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [mine, setMine] = useState<MyReviewJson | null>(null);

  const loadPage = useCallback(
    async (pageNo: number) => {
      setStatus('loading');
      try {
        const got = isAdmin
          ? await reviewsApi.listAll(product._id, pageNo)
          : await reviewsApi.list(product._id, pageNo);
        setReviews((before) => {
          const kept = pageNo === 1 ? [] : before;
          const seen = new Set(kept.map((r) => r._id));
          return [...kept, ...got.reviews.filter((r) => !seen.has(r._id))];
        });
        setTotal(got.total);
        setPage(pageNo);
        setStatus('idle');
      } catch (err) {
        setError(errorMessage(err, REVIEW_MESSAGES.failed));
        setStatus('failed');
      }
    },
    [product._id, isAdmin],
  );

  useEffect(() => {
    void loadPage(1);
  }, [loadPage]);

  useEffect(() => {
    setMine(null);
    if (!user) return;
    let live = true;
    reviewsApi.mine(product._id).then(
      (answer) => live && setMine(answer),
      () => undefined, // no form then: the list still shows
    );
    return () => {
      live = false;
    };
  }, [product._id, user]);

  /** After a change: the product's new average and count, and the list from its first page. */
  async function refresh() {
    try {
      const fresh = await reviewsApi.product(product._id);
      setSummary({ rating: fresh.rating, numReviews: fresh.numReviews });
    } catch {
      // the list below still tells
    }
    await loadPage(1);
  }

  async function post(body: ReviewBody): Promise<ReviewJson> {
    const review = await reviewsApi.post(product._id, body);
    setMine({ canReview: false, reason: 'reviewed', review });
    notify.success(REVIEW_MESSAGES.posted);
    await refresh();
    return review;
  }

  async function setHidden(review: ListedReview, hidden: boolean) {
    try {
      await reviewsApi.setHidden(review._id, { hidden });
      notify.success(hidden ? REVIEW_MESSAGES.reviewHidden : REVIEW_MESSAGES.reviewShown);
      await refresh();
    } catch (err) {
      notify.error(errorMessage(err, REVIEW_MESSAGES.moderationFailed));
    }
  }

  const summaryText = ratingSummary(summary.rating, summary.numReviews);

  return (
    <section className="mt-16" aria-labelledby="reviews" data-testid="product-reviews">
      <h2 id="reviews" className="mb-4 text-2xl font-semibold">
        Reviews
      </h2>
      <div className="flex items-center gap-3" data-testid="rating-summary">
        {summary.numReviews > 0 && <Stars rating={summary.rating} className="h-6 w-6" />}
        <p className="text-gray-800">{summaryText}</p>
      </div>

      {mine?.canReview && <ReviewForm onSubmit={post} />}
      {mine?.reason === 'reviewed' && mine.review && (
        <p className="mt-4 text-sm text-gray-600">You reviewed this product on {formatDate(mine.review.createdAt)}.</p>
      )}
      {mine?.reason === 'not-delivered' && (
        <p className="mt-4 text-sm text-gray-600">{REVIEW_MESSAGES.notDelivered}.</p>
      )}

      <ul className="mt-6 divide-y divide-gray-200" aria-label="Reviews, newest first">
        {reviews.map((review) => (
          <li key={review._id} className="py-4" data-testid="review">
            <div className="flex flex-wrap items-center gap-2">
              <Stars rating={review.rating} className="h-4 w-4" />
              <span className="sr-only">{`${review.rating} out of 5`}</span>
              <span className="font-medium">{review.author}</span>
              <span className="text-sm text-gray-500">{formatDate(review.createdAt)}</span>
              {review.hidden && <span className="rounded bg-gray-200 px-2 text-xs">Hidden</span>}
              {isAdmin && review.hidden !== undefined && (
                <button
                  type="button"
                  className="ml-auto rounded border px-2 py-1 text-sm"
                  onClick={() => void setHidden(review, !review.hidden)}
                >
                  {review.hidden ? 'Unhide' : 'Hide'}
                  <span className="sr-only"> the review by {review.author}</span>
                </button>
              )}
            </div>
            <p className="mt-2 whitespace-pre-line text-gray-800">{review.comment}</p>
          </li>
        ))}
      </ul>
      {status === 'loading' && <p className="text-gray-600">Loading...</p>}
      {status === 'failed' && <p className="text-red-700">Error: {error}</p>}
      {status === 'idle' && reviews.length < total && (
        <button type="button" className="mt-4 rounded border px-4 py-2" onClick={() => void loadPage(page + 1)}>
          Load more reviews
        </button>
      )}
    </section>
  );
}
