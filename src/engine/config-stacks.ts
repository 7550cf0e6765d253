// Stacks in moor.config.yaml: named environments (dev, staging, prod) that share one set of
// manifests and differ in paths (base then overlays), `${var:}` values, state, endpoints,
// credentials, notify and parallelism. Parsed here; selected by --stack / MOOR_STACK.
import { relative, resolve } from 'node:path';
import { UserError } from '../core/diagnostics.js';
import { isObject, type JsonFields, type JsonObject } from '../core/json.js';

/** A `${var:}` value: kept as its type when a placeholder is the whole value. */
export type StackVarValue = string | number | boolean;

/** The keys of a stack that take the place of the top-level ones of the config. */
export const STACK_OVERRIDE_KEYS = ['endpoints', 'credentials', 'notify', 'parallelism'] as const;
const STACK_KEYS = new Set<string>(['paths', 'vars', 'state', 'ignore', ...STACK_OVERRIDE_KEYS]);
export const STACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One stack as written in the config; `overrides` is the raw mapping of its endpoints, credentials, notify and parallelism. */
export interface StackDefinition {
  readonly name: string;
  /** Manifest paths, relative to the config file's folder, base first; unset: the command line's paths. */
  readonly paths?: readonly string[];
  readonly vars: Readonly<Record<string, StackVarValue>>;
  readonly state?: string;
  readonly overrides: JsonObject;
  /** Its `ignore:` rules as written (config-ignore.ts checks them). */
  readonly ignore?: unknown;
}

/**
 * The stack a run works on. Other features read the stack's name from here (a session's
 * `config.stack?.name`: policies' `stack` variable, per-stack history and watch runs).
 */
export interface SelectedStack {
  readonly name: string;
  /** The stack's manifest paths relative to the working directory, base first; unset when the stack names none. */
  readonly paths?: readonly string[];
  readonly vars: Readonly<Record<string, StackVarValue>>;
}

/**
 * How the run's stack was named, carried as a type from the command line down (never parsed back
 * out of a message): --stack, MOOR_STACK, a saved plan's, or named by moor itself (watch, a library caller, another stack's check).
 */
export type StackSource = 'flag' | 'env' | 'saved-plan' | 'named';

/** The stack a run is asked to work on, and how it was asked. */
export interface StackChoice {
  readonly name: string;
  readonly source: StackSource;
}

/** How a choice is named in messages: `--stack dev`, `MOOR_STACK=dev`, `the saved plan's stack dev`, `stack dev`. */
export function stackGivenText(choice: StackChoice): string {
  switch (choice.source) {
    case 'flag':
      return `--stack ${choice.name}`;
    case 'env':
      return `MOOR_STACK=${choice.name}`;
    case 'saved-plan':
      return `the saved plan's stack ${choice.name}`;
    case 'named':
      return `stack ${choice.name}`;
  }
}

/** The `stacks:` section, checked; an empty list when the config has none. */
export function parseStacks(value: unknown, file: string): StackDefinition[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value) || Object.keys(value).length === 0) throw new UserError(`${file}: stacks must be a mapping of stack names to {paths, vars, state, ...}`);
  return Object.entries(value).map(([name, body]) => parseStack(name, body, `${file}: stacks.${name}`));
}

function parseStack(name: string, body: unknown, where: string): StackDefinition {
  if (!STACK_NAME.test(name)) throw new UserError(`${where}: a stack name is 1 to 63 letters, digits, "-", "_" or ".", starting with a letter or digit`);
  const spec = body ?? {};
  if (!isObject(spec)) throw new UserError(`${where} must be a mapping with paths, vars, state, ${STACK_OVERRIDE_KEYS.join(', ')}`);
  for (const key of Object.keys(spec)) {
    if (!STACK_KEYS.has(key)) throw new UserError(`${where}: unknown key '${key}' (expected ${[...STACK_KEYS].join(', ')})`);
  }
  const fields: JsonFields = spec;
  const { paths, vars, state } = fields;
  if (paths !== undefined && (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string' && p.trim() !== ''))) {
    throw new UserError(`${where}.paths must be a list of manifest folders or files, base first`);
  }
  if (state !== undefined && (typeof state !== 'string' || state.trim() === '')) throw new UserError(`${where}.state must be a file path or postgres:// URL`);
  const overrides = Object.fromEntries(Object.entries(spec).filter(([k]) => (STACK_OVERRIDE_KEYS as readonly string[]).includes(k)));
  return {
    name,
    paths: paths as string[] | undefined,
    vars: parseVars(vars, `${where}.vars`),
    state: state,
    overrides,
    ...(fields.ignore !== undefined ? { ignore: fields.ignore } : {}),
  };
}

function parseVars(value: unknown, where: string): Record<string, StackVarValue> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new UserError(`${where} must be a mapping of names to strings, numbers or booleans`);
  const out: Record<string, StackVarValue> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!VAR_NAME.test(name)) throw new UserError(`${where}.${name}: a variable name is letters, digits and "_", not starting with a digit`);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new UserError(`${where}.${name} must be a string, number or boolean (variables are values; structure belongs in an overlay)`);
    }
    out[name] = v;
  }
  return out;
}

/** The stack `name` of `stacks`, or a UserError naming the stacks there are. */
export function findStack(stacks: readonly StackDefinition[], name: string, file: string, given: string): StackDefinition {
  if (stacks.length === 0) throw new UserError(`${given}: ${file} defines no stacks (add a stacks: section, or leave out ${given.split(/[ =]/)[0]})`);
  const found = stacks.find((s) => s.name === name);
  if (!found) throw new UserError(`${given}: no stack '${name}' in ${file} (its stacks: ${stacks.map((s) => s.name).join(', ')})`);
  return found;
}

/** The selected stack with its paths made relative to the working directory (they are written relative to the config file). */
export function selectedStack(stack: StackDefinition, configDir: string, cwd: string): SelectedStack {
  const paths = stack.paths?.map((p) => relative(cwd, resolve(configDir, p)) || '.');
  return { name: stack.name, ...(paths ? { paths } : {}), vars: stack.vars };
}

/** Where a stack keeps its state unless it says: its own file under .moor/stacks/. */
export function defaultStackState(name: string): string {
  return `.moor/stacks/${name}/state.json`;
}

/**
 * The state location of a stack: its own `state`, else a PostgreSQL state of the config shared by
 * every stack, else its own file. A PostgreSQL URL that names no workspace gets the stack's name
 * as its workspace, so one database keeps the stacks apart.
 */
export function stackStateLocation(stack: string, own: string | undefined, shared: string | undefined): string {
  const chosen = own ?? (shared !== undefined && isPostgresUrl(shared) ? shared : defaultStackState(stack));
  return withStackWorkspace(chosen, stack);
}

/** A postgres:// URL without `?workspace=` gets the stack's; anything else is returned as it is. */
export function withStackWorkspace(location: string, stack: string): string {
  if (!isPostgresUrl(location) || /[?&]workspace=/.test(location)) return location;
  const [base, hash] = location.split('#', 2) as [string, string | undefined];
  const joined = `${base}${base.includes('?') ? '&' : '?'}workspace=${encodeURIComponent(stack)}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}

/**
 * The manifest paths of a run: the stack's (base first) when it names some, else those given on
 * the command line (default: the current folder). Both at once is refused: which would win is a guess.
 */
export function manifestPaths(stack: SelectedStack | undefined, given: readonly string[]): readonly string[] {
  if (!stack?.paths) return given.length > 0 ? given : ['.'];
  if (given.length > 0)
    throw new UserError(`stack ${stack.name} takes its manifest paths from the config (${stack.paths.join(', ')}); give no PATH with --stack`);
  return stack.paths;
}
