// Notifications: which "stack" a run belongs to, so a later run of the same stack finds its earlier message.
import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';

export interface StackInput {
  /** The config file as given (relative to cwd) or undefined when none was used. */
  readonly configFile?: string;
  /** The manifest paths of the run (default: the current directory). */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** The stack of moor.config.yaml the run works on: then it alone (with the config) is the identity. */
  readonly stack?: string;
}

export interface StackIdentity {
  /** Stable short hash of config file, manifest paths and working directory. */
  readonly id: string;
  /** What a reader of the chat sees: the folder name, plus the paths when not the whole folder. */
  readonly name: string;
  /** The stack of moor.config.yaml, when the run has one. */
  readonly stack?: string;
}

/** How a message names the stack: `stack dev`, or `no stack` for a run of plain paths (the hash is a thread key, not a name). */
export function stackLabel(identity: StackIdentity): string {
  return identity.stack === undefined ? 'no stack' : `stack ${identity.stack}`;
}

/**
 * Paths are made absolute and sorted, so `moor drift a b` and `moor drift ./b a` from the same
 * folder are one stack; another folder or another config file is another stack.
 */
export function stackIdentity(input: StackInput): StackIdentity {
  if (input.stack !== undefined) return namedStackIdentity(input, input.stack);
  const paths = (input.paths.length > 0 ? input.paths : ['.']).map((p) => resolve(input.cwd, p)).sort();
  const config = input.configFile ? resolve(input.cwd, input.configFile) : '';
  const key = JSON.stringify({ config, paths, cwd: resolve(input.cwd) });
  const id = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const shown = input.paths.filter((p) => p !== '.' && p !== './');
  const folder = basename(resolve(input.cwd)) || '/';
  return { id, name: shown.length > 0 ? `${folder} (${shown.join(' ')})` : folder };
}

/**
 * A stack of the config: one thread per stack and config, whatever the paths (they are the
 * stack's) or the folder it runs in; the chat shows the stack's name and the folder.
 */
function namedStackIdentity(input: StackInput, stack: string): StackIdentity {
  const config = input.configFile ? resolve(input.cwd, input.configFile) : resolve(input.cwd, 'moor.config.yaml');
  const id = createHash('sha256').update(JSON.stringify({ config, stack })).digest('hex').slice(0, 12);
  return { id, name: `${stack} (${basename(resolve(input.cwd)) || '/'})`, stack };
}
