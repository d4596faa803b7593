import type { ReturnStatus } from '@shop/contracts';

export const RETURN_BADGE: Record<ReturnStatus, string> = {
  Requested: 'bg-blue-100 text-blue-800',
  Approved: 'bg-indigo-100 text-indigo-800',
  Rejected: 'bg-gray-200 text-gray-800',
  Received: 'bg-amber-100 text-amber-900',
  Refunded: 'bg-green-100 text-green-800',
};

/** What a customer reads for each status of a return. */
export const RETURN_STATUS_TEXT: Record<ReturnStatus, string> = {
  Requested: 'Return requested',
  Approved: 'Return approved',
  Rejected: 'Return not accepted',
  Received: 'Returned items received',
  Refunded: 'Return refunded',
};
