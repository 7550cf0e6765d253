// A small collector of request-validation problems, each with the target path ARM reports.
import { isObject } from '../../../core/json.js';
import { asSent } from '../../as-sent.js';
import type { CloudErrorBody } from './cloud-error.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ARM_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/[^/]+\/[^/]+\/[^/]+(\/.*)?$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type Path = readonly (string | number)[];

/** An object of a request under validation: any property may be absent, or of any type. */
export type RequestObject = Record<string, unknown>;

/** 'properties.containers[0].name': how ARM names a faulty property in `target`. */
export function targetOf(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export class Problems {
  readonly list: CloudErrorBody[] = [];

  add(path: Path, message: string, code = 'InvalidRequestContent'): void {
    const target = targetOf(path);
    this.list.push({ code, message: `${message} (at '${target}').`, target, details: [] });
  }

  /** The object at path, or undefined (reporting a wrong type when present but not an object). */
  object(value: unknown, path: Path, required = false): RequestObject | undefined {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'The property is required');
      return undefined;
    }
    if (!isObject(value)) {
      this.add(path, 'The property must be an object');
      return undefined;
    }
    return value;
  }

  array(value: unknown, path: Path, required = false): unknown[] | undefined {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'The property is required');
      return undefined;
    }
    if (!Array.isArray(value)) {
      this.add(path, 'The property must be an array');
      return undefined;
    }
    return value as unknown[];
  }

  string(value: unknown, path: Path, required = false): string | undefined {
    if (value === undefined || value === null) {
      if (required) this.add(path, 'The property is required');
      return undefined;
    }
    if (typeof value !== 'string' || (required && value.length === 0)) {
      this.add(path, required ? 'The property must be a non-empty string' : 'The property must be a string');
      return undefined;
    }
    return value;
  }

  number(value: unknown, path: Path, options: { required?: boolean; min?: number; integer?: boolean; positive?: boolean } = {}): number | undefined {
    if (value === undefined || value === null) {
      if (options.required) this.add(path, 'The property is required');
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || (options.integer && !Number.isInteger(value))) {
      this.add(path, options.integer ? 'The property must be an integer' : 'The property must be a number');
      return undefined;
    }
    if (options.positive && value <= 0) this.add(path, 'The value must be greater than zero');
    if (options.min !== undefined && value < options.min) this.add(path, `The value must be at least ${options.min}`);
    return value;
  }

  boolean(value: unknown, path: Path): void {
    if (value !== undefined && value !== null && typeof value !== 'boolean') this.add(path, 'The property must be a boolean');
  }

  oneOf(value: unknown, allowed: readonly string[], path: Path): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || !allowed.some((a) => a.toLowerCase() === value.toLowerCase())) {
      this.add(path, `The value '${asSent(value)}' is not allowed; allowed values: ${allowed.join(', ')}`);
    }
  }

  /**
   * A value of an open list (the seed shows only the values that occur, or the service's definition
   * is an extensible enum): any string; the local cloud cannot know more values than the seeds show.
   */
  openValue(value: unknown, path: Path): void {
    this.string(value, path);
  }

  armId(value: unknown, path: Path, required = false): void {
    const s = this.string(value, path, required);
    if (s !== undefined && !ARM_ID.test(s)) this.add(path, `The value '${s}' is not a resource id (/subscriptions/.../resourceGroups/.../providers/...)`);
  }

  base64(value: unknown, path: Path): void {
    const s = this.string(value, path);
    if (s !== undefined && (s.length % 4 !== 0 || !BASE64.test(s))) this.add(path, 'The value must be base64-encoded');
  }
}
