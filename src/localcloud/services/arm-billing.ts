// Placeholder, being written.
import type { LocalService } from '../types.js';
import { cloudErrorBody, armResponseHeaders } from './arm/cloud-error.js';

export const armBilling: LocalService = {
  name: 'arm',
  routes: [],
  errorBody: (_status, code, message) => cloudErrorBody(code, message),
  responseHeaders: armResponseHeaders,
};
