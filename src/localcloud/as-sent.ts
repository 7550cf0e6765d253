// How the local cloud's error messages quote a value from the request they refuse.

/** A value as the client sent it: a string verbatim, anything else as its JSON text (an object never reads '[object Object]'). */
export function asSent(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
