import { BadRequestException } from '@nestjs/common';
import { REVIEW_MESSAGES } from '@shop/contracts';
import type { FastifyReply } from 'fastify';
import type { ReviewPage } from './reviews.service';

/** `?page=`: absent → 1; a whole number from 1 (up to 100000); anything else (an array, `0`, `2.5`) → 400. */
export function parsePage(raw: unknown): number {
  if (raw === undefined || raw === '') return 1;
  const n = typeof raw === 'string' && /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new BadRequestException(REVIEW_MESSAGES.page);
  return n;
}

/**
 * The page as a bare array, its total in `X-Total-Count`. Never kept by a shared cache (no Surrogate-Control, and
 * `no-store`): a review shows up, or goes, on the next read.
 */
export function sendPage<T>(reply: FastifyReply, page: ReviewPage<T>): T[] {
  void reply.headers({ 'X-Total-Count': String(page.total), 'Cache-Control': 'no-store' });
  return page.items;
}
