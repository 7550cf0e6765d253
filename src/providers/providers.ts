// The set of service clients a run uses, created lazily from the configuration.
// OWNER: providers helper. Placeholder until the clients exist.
export interface Providers {
  readonly [service: string]: unknown;
}
