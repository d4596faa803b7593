// web/axios-browser.mjs, the `axios` of the browser build (web/vite.config.mts): the SPA's client made from it
// behaves as one made by the package's axios.create — defaults (JSON bodies), interceptors, errors, cancellation.
import type { AxiosAdapter, AxiosInstance, InternalAxiosRequestConfig } from 'axios';
// @ts-expect-error -- a plain ES module of the build, without types; the package's types describe what it exports
import lean, { AxiosError, isCancel } from '../../axios-browser.mjs';

const axios = lean as AxiosInstance & { isCancel: (value: unknown) => boolean; CancelToken?: unknown };

describe('the browser build’s axios (web/axios-browser.mjs)', () => {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    if (config.url === '/api/missing') {
      const response = { data: { message: 'Not found' }, status: 404, statusText: '404', headers: {}, config };
      throw new AxiosError('Request failed with status code 404', 'ERR_BAD_REQUEST', config, {}, response);
    }
    return { data: config.data, status: 200, statusText: 'OK', headers: {}, config };
  };

  beforeEach(() => (seen.length = 0));

  it('creates an instance with axios’s defaults: a JSON body, merged headers, the interceptors', async () => {
    const api = axios.create({ baseURL: '/', headers: { Accept: 'application/json' }, timeout: 20_000, adapter });
    api.interceptors.request.use((config) => {
      config.headers.set('Authorization', 'Bearer t');
      return config;
    });
    const { data } = await api.post('/api/subscribe', { email: 'a@b.c' });
    expect(seen[0].data).toBe('{"email":"a@b.c"}');
    expect(data).toEqual({ email: 'a@b.c' }); // and a JSON answer parsed
    expect(seen[0].headers.get('Content-Type')).toMatch(/application\/json/);
    expect(seen[0].headers.get('Authorization')).toBe('Bearer t');
    expect(seen[0].headers.get('Accept')).toBe('application/json');
    expect(seen[0].timeout).toBe(20_000);
  });

  it('rejects with its AxiosError (one class: `instanceof` holds), and tells a cancellation apart', async () => {
    const api = axios.create({ adapter });
    const failure = await api.get('/api/missing').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AxiosError);
    expect((failure as InstanceType<typeof AxiosError>).response?.status).toBe(404);

    const controller = new AbortController();
    controller.abort();
    const cancelled = await api.get('/api/cart', { signal: controller.signal }).catch((error: unknown) => error);
    expect(isCancel(cancelled)).toBe(true);
    expect(axios.isCancel(cancelled)).toBe(true);
    expect(isCancel(failure)).toBe(false);
  });

  it('leaves out what the SPA does not use', () => {
    expect(axios.CancelToken).toBeUndefined();
  });
});
