// The reviews calls of the product page (docs/api.md#reviews): pages of 10, newest first, the total in X-Total-Count.
import type {
  AdminReviewJson,
  MyReviewJson,
  ProductJson,
  ReviewBody,
  ReviewJson,
  ReviewVisibilityBody,
} from '@shop/contracts';
import { api } from '@/api/client';

export interface ReviewsPage<T> {
  reviews: T[];
  total: number;
}

function totalOf(headers: unknown, fallback: number): number {
  const raw = (headers as Record<string, unknown> | undefined)?.['x-total-count'];
  const n = Number(raw);
  return raw !== undefined && Number.isInteger(n) && n >= 0 ? n : fallback;
}

async function page<T>(url: string, params: Record<string, string | number>): Promise<ReviewsPage<T>> {
  const res = await api.get<T[]>(url, { params });
  return { reviews: res.data, total: totalOf(res.headers, res.data.length) };
}

export const reviewsApi = {
  /** Visible reviews of a product (anyone). */
  list: (productId: string, pageNo: number) => page<ReviewJson>(`/api/products/${productId}/reviews`, { page: pageNo }),
  /** Every review of the product, hidden ones too (admins). */
  listAll: (productId: string, pageNo: number) =>
    page<AdminReviewJson>('/api/admin/reviews', { productId, page: pageNo }),
  /** Whether the signed-in caller may review it, and their review. */
  mine: async (productId: string) => (await api.get<MyReviewJson>('/api/reviews/mine', { params: { productId } })).data,
  post: async (productId: string, body: ReviewBody) =>
    (await api.post<ReviewJson>(`/api/products/${productId}/reviews`, body)).data,
  setHidden: async (reviewId: string, body: ReviewVisibilityBody) =>
    (await api.put<AdminReviewJson>(`/api/admin/reviews/${reviewId}`, body)).data,
  /** The product again, for its new average and count. */
  product: async (productId: string) => (await api.get<ProductJson>(`/api/products/${productId}`)).data,
};
