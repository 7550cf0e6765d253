// The services moor talks to: the keys of `endpoints:` and `credentials:` in moor.config.yaml,
// the providers' clients and the local cloud's emulated services. One list; the type follows it.
export const SERVICE_NAMES = ['arm', 'graph', 'analytics', 'fabric', 'lcs', 'connector'] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}
