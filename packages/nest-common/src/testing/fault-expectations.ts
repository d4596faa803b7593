import type { JsonResponse } from './http';
import { waitFor } from './wait-for';

/**
 * How long a request that needs a missing dependency may take to answer 503, in the services' fault suites.
 *
 * The services' own worst case is 5 s: a database read that hangs on its socket (socketTimeoutMS 2.5 s) is retried
 * once by the driver, which then waits out server selection (2.5 s). A Redis command gives up after 2 s and an RPC
 * after 5 s (checkout's RPC_TIMEOUT_MS). The bound adds 2.5 s for a 2-core CI box running two suites and a whole
 * shop beside this one, and stays 2.5 s under the gateway's upstream timeout (10 s), so the shopper still gets the
 * service's message, never the gateway's. A fixed 6 s was once a flake: 6,085 ms under CI load.
 */
export const UNAVAILABLE_BOUND_MS = 7_500;

/** An answer and how long it took. */
export interface Timed<T = any> {
  status: number;
  body: T;
  ms: number;
}

export async function timed<T = any>(call: () => Promise<JsonResponse<T>>): Promise<Timed<T>> {
  const started = Date.now();
  const res = await call();
  return { status: res.status, body: res.body, ms: Date.now() - started };
}

/**
 * What a fault suite checks of an answer: `expect(outcome(res)).toEqual(UNAVAILABLE)`. A failure shows which part was
 * off, `late` holding the milliseconds when the answer came after the bound.
 */
export function outcome(
  res: Timed<{ statusCode?: unknown; message?: unknown } | undefined>,
  boundMs = UNAVAILABLE_BOUND_MS,
) {
  return {
    status: res.status,
    statusCode: res.body?.statusCode,
    message: typeof res.body?.message,
    late: res.ms >= boundMs ? res.ms : false,
  };
}

/** A JSON 503 with the API's error shape, in time. */
export const UNAVAILABLE = { status: 503, statusCode: 503, message: 'string', late: false } as const;

/** `/ready`'s answer while a dependency is away: 503, naming it, in time. */
export function readiness(res: Timed<{ message?: string } | undefined>, dependency: string) {
  return { status: res.status, names: res.body?.message?.includes(dependency) ?? false, late: outcome(res).late };
}

export const NOT_READY = { status: 503, names: true, late: false } as const;

/** Waits for a service to work again after its dependency returned: no restart, within 30 s. */
export const recovers = (what: string, check: () => Promise<boolean>): Promise<void> => waitFor(what, check, 30_000);
