import { useState, type FormEvent } from 'react';
import {
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_MESSAGES,
  REVIEW_RATING_MAX,
  type ReviewBody,
  type ReviewJson,
} from '@shop/contracts';
import { errorMessage } from '@/api/client';

interface ReviewFormProps {
  /** Posts the review; resolves with it, or rejects with the server's refusal. */
  onSubmit(body: ReviewBody): Promise<ReviewJson>;
}

const STARS = Array.from({ length: REVIEW_RATING_MAX }, (_, i) => REVIEW_RATING_MAX - i);

/** The signed-in customer's review: a rating (a radio group of 1–5 stars) and a comment of 1–500 characters. */
export function ReviewForm({ onSubmit }: ReviewFormProps) {
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = comment.trim();
    if (!rating) return setError(REVIEW_MESSAGES.chooseRating);
    if (!text) return setError(REVIEW_MESSAGES.commentRequired);
    if (text.length > REVIEW_COMMENT_MAX_LENGTH) return setError(REVIEW_MESSAGES.commentTooLong);
    setSending(true);
    setError(null);
    try {
      await onSubmit({ rating, comment: text });
    } catch (err) {
      setError(errorMessage(err, REVIEW_MESSAGES.postFailed));
      setSending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-6 max-w-xl space-y-4 rounded border p-4"
      aria-label="Write a review"
    >
      <h3 className="text-lg font-semibold">Write a review</h3>
      <fieldset>
        <legend className="mb-1 text-sm font-medium">Your rating</legend>
        <div className="flex gap-3">
          {STARS.map((n) => (
            <label key={n} className="flex items-center gap-1 text-sm">
              <input
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                onChange={() => {
                  setRating(n);
                  setError(null);
                }}
              />
              {n === 1 ? '1 star' : `${n} stars`}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor="review-comment" className="mb-1 block text-sm font-medium">
          Your review
        </label>
        <textarea
          id="review-comment"
          value={comment}
          maxLength={REVIEW_COMMENT_MAX_LENGTH}
          rows={4}
          className="w-full rounded border p-2"
          aria-describedby="review-comment-count"
          onChange={(e) => {
            setComment(e.target.value);
            setError(null);
          }}
        />
        <p id="review-comment-count" className="text-xs text-gray-500">
          {comment.trim().length}/{REVIEW_COMMENT_MAX_LENGTH}
        </p>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={sending} className="rounded bg-black px-4 py-2 text-white disabled:opacity-50">
        {sending ? 'Posting...' : 'Post review'}
      </button>
    </form>
  );
}
