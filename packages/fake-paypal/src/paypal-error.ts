import type { PayPalErrorBody, PayPalLink } from './types';

type Detail = NonNullable<PayPalErrorBody['details']>[number];

const NAMES: Record<number, { name: string; message: string }> = {
  400: { name: 'INVALID_REQUEST', message: 'Request is not well-formed, syntactically incorrect, or violates schema.' },
  401: {
    name: 'AUTHENTICATION_FAILURE',
    message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
  },
  404: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' },
  405: { name: 'METHOD_NOT_SUPPORTED', message: 'The server does not implement the requested HTTP method.' },
  413: { name: 'INVALID_REQUEST', message: 'Request entity too large.' },
  415: { name: 'UNSUPPORTED_MEDIA_TYPE', message: "The server does not support the request payload's media type." },
  422: {
    name: 'UNPROCESSABLE_ENTITY',
    message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  },
  500: { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error has occurred.' },
};

/** An Orders v2 error answer: thrown by validation and handlers, turned into PayPal's error body by the server. */
export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly details: Detail[] = [],
    readonly links: PayPalLink[] = [],
    /** Which API reference the error's information_link points into. */
    readonly api: 'orders' | 'payments' = 'orders',
  ) {
    super(details[0]?.description ?? NAMES[status]?.message ?? `HTTP ${status}`);
    this.name = 'PayPalError';
  }

  toBody(debugId: string): PayPalErrorBody {
    const known = NAMES[this.status] ?? { name: 'INTERNAL_SERVER_ERROR', message: this.message };
    const issue = this.details[0]?.issue;
    return {
      name: known.name,
      ...(this.details.length ? { details: this.details } : {}),
      message: known.message,
      debug_id: debugId,
      links: [
        ...this.links,
        {
          href: `https://developer.paypal.com/docs/api/${this.api}/v2/#error-${issue ?? known.name}`,
          rel: 'information_link',
          method: 'GET',
        },
      ],
    };
  }
}

/** 400 INVALID_REQUEST with one detail. */
export function invalidRequest(issue: string, description: string, field?: string, value?: string): PayPalError {
  return new PayPalError(400, [detail(issue, description, field, value)]);
}

/** 422 UNPROCESSABLE_ENTITY with one detail. */
export function unprocessable(issue: string, description: string, field?: string, value?: string): PayPalError {
  return new PayPalError(422, [detail(issue, description, field, value)]);
}

function detail(issue: string, description: string, field?: string, value?: string): Detail {
  return {
    ...(field !== undefined ? { field, location: 'body' } : {}),
    ...(value !== undefined ? { value } : {}),
    issue,
    description,
  };
}
