// How the watch's JSON and its query strings name a stack (docs/dashboard.md): inside, a stack
// without a name (the manifests watched without stacks) is undefined, as everywhere in moor.

/** `stack` in /api/status, the dashboard's documents and the live messages: the name, null without stacks. */
export function stackField(stack: string | undefined): string | null {
  return stack ?? null;
}

/** The stack a page's `?stack=` names: absent or empty names the one without stacks. */
export function stackOfQuery(value: string | null): string | undefined {
  return value === null || value === '' ? undefined : value;
}
