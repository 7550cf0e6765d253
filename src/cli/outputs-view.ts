// What `moor outputs` prints: every output (text or JSON), or one value raw for shell scripts.
import { UserError } from '../core/diagnostics.js';
import { fromPointer, getAt, type JsonObject } from '../core/json.js';
import type { IoHost } from './io-host.js';

export interface OutputsTarget {
  readonly address: string;
  /** Undefined for every output; '' is the whole outputs object, as in `${ref:ADDR#}`. */
  readonly pointer?: string;
}

/** `ADDR [POINTER]` or `ADDR#/pointer`, as a `${ref:}` placeholder writes it. */
export function splitTarget(address: string, pointer: string | undefined): OutputsTarget {
  const hash = address.indexOf('#');
  if (hash >= 0 && pointer !== undefined) throw new UserError(`give the pointer once: either ${address} or a second argument ${pointer}`);
  const addr = hash >= 0 ? address.slice(0, hash) : address;
  const ptr = hash >= 0 ? address.slice(hash + 1) : pointer;
  if (!/^[A-Za-z]+\/\S+$/.test(addr)) throw new UserError(`${address} is not an address: use Kind/name, e.g. ContainerGroup/web`);
  if (ptr !== undefined && ptr !== '' && !ptr.startsWith('/')) throw new UserError(`${ptr} is not a JSON pointer: it starts with /, e.g. /${ptr}`);
  return { address: addr, pointer: ptr };
}

/** Prints and returns the exit code; a pointer that finds nothing is an error naming what exists. */
export function printOutputs(io: IoHost, target: OutputsTarget, outputs: JsonObject | undefined, format: 'text' | 'json'): number {
  const all = outputs ?? {};
  if (target.pointer !== undefined) {
    const value = getAt(all, fromPointer(target.pointer));
    if (value === undefined) {
      const keys = Object.keys(all).sort();
      throw new UserError(
        `${target.address} has no output at ${target.pointer || '/'}; it has ${keys.length ? keys.map((k) => '/' + k).join(', ') : 'no outputs'}`,
      );
    }
    io.stdout.write(format === 'json' ? JSON.stringify(value) + '\n' : raw(value) + '\n');
    return 0;
  }
  if (format === 'json') {
    io.stdout.write(JSON.stringify(all, null, 2) + '\n');
    return 0;
  }
  const keys = Object.keys(all).sort();
  if (keys.length === 0) {
    io.stderr.write(`${target.address} has no outputs in state.\n`);
    return 0;
  }
  for (const key of keys) io.stdout.write(`${key} = ${JSON.stringify(all[key])}\n`);
  return 0;
}

/** A string as is (no quotes), anything else as JSON: what a shell variable wants. */
function raw(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
