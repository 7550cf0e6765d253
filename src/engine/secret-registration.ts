// Registers the resolved values of a spec's sensitive fields with the masker, so no output shows them.
import { isObject, type JsonObject, type JsonValue } from '../core/json.js';
import type { SecretRegistry } from '../core/masker.js';
import { mapSensitive } from './secrets.js';

/** Every text at or under a sensitive path (the kind's `sensitive` patterns) becomes a masked secret. */
export function registerResolvedSecrets(secrets: SecretRegistry | undefined, sensitive: readonly string[], spec: JsonObject): void {
  if (!secrets || sensitive.length === 0) return;
  mapSensitive(spec, sensitive, (value) => {
    eachText(value, (text) => secrets.register(text));
    return value;
  });
}

function eachText(value: JsonValue, fn: (text: string) => void): void {
  if (typeof value === 'string') fn(value);
  else if (Array.isArray(value)) value.forEach((v) => eachText(v, fn));
  else if (isObject(value)) Object.values(value).forEach((v) => eachText(v, fn));
}
