/** Server data a slice holds: what it has, whether a request is under way, and the message of a failure. */
export interface Remote<T> {
  data: T;
  status: 'idle' | 'loading' | 'succeeded' | 'failed';
  error: string | null;
  /** The HTTP status of the failure, when the server answered one. */
  errorStatus?: number;
  /** The request whose answer counts (an older one answering late is ignored). */
  requestId?: string;
}

export const remote = <T>(data: T): Remote<T> => ({ data, status: 'idle', error: null });
