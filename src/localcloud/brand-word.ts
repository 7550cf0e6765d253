// The official clients address ARM provider namespaces by the real brand word; with a brand word
// set, the local cloud routes `<Brand>.ContainerInstance` as the seeds' `Vendor.ContainerInstance`.
import { VENDOR } from './services/arm/vendor.js';

/** A brand word is one word of letters and digits, e.g. Microsoft. */
export const BRAND_WORD = /^[A-Za-z][A-Za-z0-9]{0,39}$/;

/** The path with `<brand>.<Namespace>` segments written as `Vendor.<Namespace>`; unchanged without a brand. */
export function routedPath(pathname: string, brand: string | undefined): string {
  if (!brand) return pathname;
  const prefix = `${brand.toLowerCase()}.`;
  return pathname
    .split('/')
    .map((segment) => (segment.toLowerCase().startsWith(prefix) && segment.length > prefix.length ? `${VENDOR}.${segment.slice(prefix.length)}` : segment))
    .join('/');
}
