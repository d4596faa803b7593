// The `axios` of the browser build: web/vite.config.mts resolves the SPA's imports of 'axios' to this module (the
// dev server, the prerender's server build and the unit tests use the package itself). It is axios's own
// lib/axios.js — the same Axios class, defaults, adapters, interceptors and errors, and an instance made the way
// `axios.create` makes it — less the parts of its default export the SPA never uses and which a bundler cannot drop
// there, since they are properties of one object: CancelToken (the SPA cancels with AbortController), all/spread,
// toFormData/formToJSON, getAdapter, HttpStatusCode and VERSION. 1.2 KB gzipped of every first route (issue 27).
// A named import of one of those fails the build ("is not exported"), it does not become undefined.
import Axios from 'axios/unsafe/core/Axios.js';
import AxiosError from 'axios/unsafe/core/AxiosError.js';
import AxiosHeaders from 'axios/unsafe/core/AxiosHeaders.js';
import mergeConfig from 'axios/unsafe/core/mergeConfig.js';
import CanceledError from 'axios/unsafe/cancel/CanceledError.js';
import isCancel from 'axios/unsafe/cancel/isCancel.js';
import defaults from 'axios/unsafe/defaults/index.js';
import bind from 'axios/unsafe/helpers/bind.js';
import isAxiosError from 'axios/unsafe/helpers/isAxiosError.js';
import utils from 'axios/unsafe/utils.js';

/** axios's createInstance (lib/axios.js): a callable instance with the Axios methods bound, and `create`. */
function createInstance(defaultConfig) {
  const context = new Axios(defaultConfig);
  const instance = bind(Axios.prototype.request, context);
  utils.extend(instance, Axios.prototype, context, { allOwnKeys: true });
  utils.extend(instance, context, null, { allOwnKeys: true });
  instance.create = function create(instanceConfig) {
    return createInstance(mergeConfig(defaultConfig, instanceConfig));
  };
  return instance;
}

const axios = createInstance(defaults);
axios.Axios = Axios;
axios.AxiosError = AxiosError;
axios.AxiosHeaders = AxiosHeaders;
axios.CanceledError = CanceledError;
axios.isCancel = isCancel;
axios.isAxiosError = isAxiosError;
axios.mergeConfig = mergeConfig;
axios.default = axios;

export default axios;
export { Axios, AxiosError, AxiosHeaders, CanceledError, isAxiosError, isCancel, mergeConfig };
