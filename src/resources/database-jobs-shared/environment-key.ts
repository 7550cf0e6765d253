// Database movement: the service runs one operation per environment at a time.
/** The key of a database environment for runs that must not overlap on it. */
export function environmentKey(projectId: unknown, environmentId: unknown): string {
  return `lcs:${String(projectId)}/${String(environmentId)}`;
}
