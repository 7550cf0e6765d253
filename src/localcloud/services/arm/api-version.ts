// The api-version query parameter every ARM operation requires.
import type { LocalRequest, LocalResponse } from '../../types.js';
import { cloudError } from './cloud-error.js';

/** A 400 CloudError when api-version is missing or not the one the operation supports; else undefined. */
export function checkApiVersion(req: LocalRequest, supported: string): LocalResponse | undefined {
  const given = req.url.searchParams.get('api-version');
  if (!given) {
    return cloudError(400, 'MissingApiVersionParameter', 'The api-version query parameter (?api-version=) is required for all requests.');
  }
  if (given !== supported) {
    return cloudError(400, 'InvalidApiVersionParameter', `The api-version '${given}' is invalid. The supported versions are '${supported}'.`);
  }
  return undefined;
}
