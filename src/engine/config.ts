// moor.config.yaml and the MOOR_* environment: endpoints, credentials, state, parallelism, notify.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { UserError } from '../core/diagnostics.js';
import { BoundedMap } from '../core/bounded-map.js';
import { fieldsOf, isObject, type JsonFields } from '../core/json.js';
import { isServiceName, SERVICE_NAMES, type ServiceName } from '../core/services.js';
import type { FilePolicy } from './placeholder-file.js';
import { fileErrorCode, fileErrorMessage } from './file-errors.js';
import { API_FIELDS, type ApiName, type ApiSettingsOverrides } from '../core/api-config.js';
import { parseIgnoreRules, type IgnoreRule } from './config-ignore.js';
import {
  findStack,
  parseStacks,
  selectedStack,
  stackGivenText,
  stackStateLocation,
  type SelectedStack,
  type StackChoice,
  type StackDefinition,
} from './config-stacks.js';

export interface CredentialSource {
  readonly tokenEnv?: string;
  readonly tokenCommand?: string;
}

export interface NotifyConfig {
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly bot: { readonly id: string; readonly name?: string };
  readonly tokenEnv?: string;
  readonly tokenCommand?: string;
}

export interface MoorConfig {
  /** Where the config came from, for messages; undefined when none was found. */
  readonly file?: string;
  /** Configured endpoints; empty means the built-in local cloud. */
  readonly endpoints: Partial<Record<ServiceName, string>>;
  readonly credentials: Partial<Record<ServiceName, CredentialSource>>;
  readonly state?: string;
  readonly parallelism?: number;
  readonly notify?: NotifyConfig;
  /** Where `${file:}` placeholders may read; paths in it are absolute. */
  readonly files?: FilePolicy;
  /** api-version, provider namespace and version header per API; the seeds' values by default. */
  readonly apis?: ApiSettingsOverrides;
  /** The built-in local cloud: a fixtures file (relative to the config file). */
  readonly localCloud?: { readonly fixtures?: string };
  /** The names of the config's stacks, in the order written; unset when it has none. */
  readonly stacks?: readonly string[];
  /**
   * The stack this run works on (--stack / MOOR_STACK): the one place its name lives for every
   * feature (`session.config.stack?.name`). Endpoints, credentials, notify, parallelism and state
   * above are already the stack's own.
   */
  readonly stack?: SelectedStack;
  /** `moor history`: how many runs state keeps, and how many bytes of them (oldest dropped first). */
  readonly history?: { readonly keep?: number; readonly maxBytes?: number };
  /** `ignore:` rules: the top level's, then the selected stack's (config-ignore.ts). */
  readonly ignore?: readonly IgnoreRule[];
}

const TOP_KEYS = new Set(['endpoints', 'credentials', 'state', 'parallelism', 'notify', 'files', 'localCloud', 'apis', 'stacks', 'history', 'ignore']);

/**
 * The files this config consists of (absolute): the config file and the local-cloud fixtures it
 * names. They often sit beside the manifests, so loading skips them.
 */
export function configFiles(config: MoorConfig, cwd: string): ReadonlySet<string> {
  if (config.file === undefined) return new Set();
  const fixtures = fixturesFile(config, cwd);
  const file = resolve(cwd, config.file);
  return new Set(fixtures === undefined ? [file] : [file, fixtures]);
}

/** The local cloud's fixtures file (absolute): its path is relative to the config file that names it. */
export function fixturesFile(config: MoorConfig, cwd: string): string | undefined {
  const fixtures = config.localCloud?.fixtures;
  return fixtures ? resolve(dirname(resolve(cwd, config.file ?? 'moor.config.yaml')), fixtures) : undefined;
}

/**
 * Reads the config file (--config, else MOOR_CONFIG, else moor.config.yaml when present), selects
 * the stack `stack` names (with how it was named, for messages) and applies MOOR_* overrides.
 */
export function loadConfig(explicitFile: string | undefined, cwd: string, env: Readonly<NodeJS.ProcessEnv>, stack?: StackChoice): MoorConfig {
  const fromEnv = explicitFile === undefined && env.MOOR_CONFIG ? env.MOOR_CONFIG : undefined;
  const file = explicitFile ?? fromEnv ?? (existsSync(resolve(cwd, 'moor.config.yaml')) ? 'moor.config.yaml' : undefined);
  const given = explicitFile !== undefined ? `--config ${explicitFile}` : fromEnv !== undefined ? `MOOR_CONFIG=${fromEnv}` : undefined;
  const shown = file ?? 'moor.config.yaml';
  const { config, files, stacks, ignore, stackIgnores, own } = file ? parsedFile(resolve(cwd, file), file, given) : parsedConfig({}, shown, resolve(cwd));
  const base: MoorConfig = {
    ...config,
    file,
    files,
    ...(stacks.length > 0 ? { stacks: stacks.map((s) => s.name) } : {}),
    ...(ignore.length > 0 ? { ignore } : {}),
  };
  if (stack === undefined) return applyEnvironment(base, env);
  const chosen = findStack(stacks, stack.name, shown, stackGivenText(stack));
  const rules = [...ignore, ...(stackIgnores.get(chosen.name) ?? [])];
  return applyEnvironment(
    withStack({ ...base, ...(rules.length > 0 ? { ignore: rules } : {}) }, chosen, own.get(chosen.name) as MoorConfig, dirname(resolve(cwd, file ?? '.')), cwd),
    env,
  );
}

/** The config as one stack sees it: its endpoints and credentials per service over the top-level ones, its notify, parallelism and state. */
function withStack(base: MoorConfig, stack: StackDefinition, own: MoorConfig, configDir: string, cwd: string): MoorConfig {
  return {
    ...base,
    endpoints: { ...base.endpoints, ...own.endpoints },
    credentials: { ...base.credentials, ...own.credentials },
    notify: own.notify ?? base.notify,
    parallelism: own.parallelism ?? base.parallelism,
    state: stackStateLocation(stack.name, stack.state, base.state),
    stack: selectedStack(stack, configDir, cwd),
  };
}

/**
 * Refuses a command that reads manifests or state without a stack when the config has stacks:
 * a dev run must never take prod's (or a stack-less) state by default.
 */
export function requireStackChoice(config: MoorConfig, alternatives = ''): void {
  if (config.stacks === undefined || config.stack !== undefined) return;
  throw new UserError(
    `${config.file ?? 'moor.config.yaml'} defines stacks (${config.stacks.join(', ')}): choose one with --stack NAME (or MOOR_STACK)${alternatives}`,
  );
}

/** A config file as parsed and checked, before a stack is selected and the environment applied. */
interface ParsedConfig {
  readonly config: MoorConfig;
  readonly files: FilePolicy | undefined;
  readonly stacks: readonly StackDefinition[];
  readonly ignore: readonly IgnoreRule[];
  readonly stackIgnores: ReadonlyMap<string, readonly IgnoreRule[]>;
  readonly own: ReadonlyMap<string, MoorConfig>;
}

/**
 * The last parse of each config file, by its text: a watch loads the config once per stack (and the
 * ownership check once per other stack), and each parse checks every stack's settings, so a config of N
 * stacks would cost N² checks at every start and every change. A file whose text changed is parsed again.
 */
const parsedFiles = new BoundedMap<string, { readonly text: string; readonly parsed: ParsedConfig }>(100);

function parsedFile(path: string, file: string, explicit: string | undefined): ParsedConfig {
  const text = readConfigText(path, file, explicit);
  const key = `${path}\u0000${file}`;
  const known = parsedFiles.get(key);
  if (known?.text === text) return known.parsed;
  const parsed = parsedConfig(parseConfigText(text, path), file, dirname(path));
  parsedFiles.set(key, { text, parsed });
  return parsed;
}

/** `shown`: the file as messages name it; `dir`: its folder (file paths in it are taken from there). */
function parsedConfig(raw: JsonFields, shown: string, dir: string): ParsedConfig {
  const config = parseConfig(raw, shown);
  const files = raw.files === undefined ? undefined : filePolicy(raw.files, shown, dir);
  const stacks = parseStacks(raw.stacks, shown);
  const ignore = parseIgnoreRules(raw.ignore, shown, ['ignore']);
  const stackIgnores = new Map(stacks.map((s) => [s.name, parseIgnoreRules(s.ignore, shown, ['stacks', s.name, 'ignore'])]));
  // Every stack's own settings are checked, the selected one's or not: a mistake in prod's shows in a dev run.
  const own = new Map(stacks.map((s) => [s.name, parseConfig(s.overrides, `${shown}: stacks.${s.name}`)]));
  return { config, files, stacks, ignore, stackIgnores, own };
}

/**
 * `explicit`: how the user named the file (`--config F` or `MOOR_CONFIG=F`), so a message points
 * at what to fix; unset for the default moor.config.yaml.
 */
function readConfigText(path: string, file: string, explicit: string | undefined): string {
  const given = explicit ?? `config file ${file}`;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = fileErrorCode(err);
    if (code === 'EISDIR' && explicit) throw new UserError(`${given} is a directory; give the config file, e.g. ${join(file, 'moor.config.yaml')}`);
    if (code === 'ENOENT') throw new UserError(`${given}: no such file (${path})`);
    throw new UserError(`${given}: ${fileErrorMessage(err, path) ?? (err as Error).message}`);
  }
}

function parseConfigText(text: string, path: string): JsonFields {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new UserError(`config file ${path} is not valid YAML: ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isObject(doc)) throw new UserError(`config file ${path} must be a mapping`);
  return doc;
}

function parseConfig(raw: JsonFields, file: string): MoorConfig {
  for (const key of Object.keys(raw)) {
    if (!TOP_KEYS.has(key)) throw new UserError(`${file}: unknown key '${key}' (expected ${[...TOP_KEYS].join(', ')})`);
  }
  const endpoints = serviceMap(raw.endpoints, file, 'endpoints', (v, where) => {
    if (typeof v !== 'string') throw new UserError(`${file}: ${where} must be a URL string`);
    return v.replace(/\/+$/, '');
  });
  const credentials = serviceMap(raw.credentials, file, 'credentials', (v, where) => credentialSource(v, `${file}: ${where}`));
  const parallelism = raw.parallelism === undefined ? undefined : positiveInt(raw.parallelism, `${file}: parallelism`);
  if (raw.state !== undefined && typeof raw.state !== 'string') throw new UserError(`${file}: state must be a file path or postgres:// URL`);
  return {
    endpoints,
    credentials,
    state: raw.state,
    parallelism,
    notify: raw.notify === undefined ? undefined : notifyConfig(raw.notify, file),
    localCloud: raw.localCloud === undefined ? undefined : localCloudConfig(raw.localCloud, file),
    apis: raw.apis === undefined ? undefined : apisConfig(raw.apis, file),
    history: raw.history === undefined ? undefined : historyConfig(raw.history, file),
  };
}

function serviceMap<T>(value: unknown, file: string, key: string, each: (v: unknown, where: string) => T): Partial<Record<ServiceName, T>> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new UserError(`${file}: ${key} must be a mapping of service names`);
  const out: Partial<Record<ServiceName, T>> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!isServiceName(name)) throw new UserError(`${file}: ${key}.${name} is not a service (expected ${SERVICE_NAMES.join(', ')})`);
    out[name] = each(v, `${key}.${name}`);
  }
  return out;
}

function credentialSource(v: unknown, where: string): CredentialSource {
  const fields = fieldsOf(v);
  if (!fields) throw new UserError(`${where} must be {tokenEnv: NAME} or {tokenCommand: "..."}`);
  const { tokenEnv, tokenCommand, ...rest } = fields;
  if (Object.keys(rest).length > 0 || (tokenEnv === undefined) === (tokenCommand === undefined)) {
    throw new UserError(`${where} must have exactly one of tokenEnv or tokenCommand`);
  }
  if (tokenEnv !== undefined && typeof tokenEnv !== 'string') throw new UserError(`${where}.tokenEnv must be a variable name`);
  if (tokenCommand !== undefined && typeof tokenCommand !== 'string') throw new UserError(`${where}.tokenCommand must be a command line`);
  return { tokenEnv: tokenEnv, tokenCommand: tokenCommand };
}

function notifyConfig(v: unknown, file: string): NotifyConfig {
  const where = `${file}: notify`;
  if (!isObject(v)) throw new UserError(`${where} must be a mapping`);
  if (typeof v.serviceUrl !== 'string') throw new UserError(`${where}.serviceUrl is required`);
  if (typeof v.conversationId !== 'string') throw new UserError(`${where}.conversationId is required`);
  if (!isObject(v.bot) || typeof v.bot.id !== 'string') throw new UserError(`${where}.bot.id is required`);
  return {
    serviceUrl: v.serviceUrl.replace(/\/+$/, ''),
    conversationId: v.conversationId,
    bot: { id: v.bot.id, name: typeof v.bot.name === 'string' ? v.bot.name : undefined },
    tokenEnv: typeof v.tokenEnv === 'string' ? v.tokenEnv : undefined,
    tokenCommand: typeof v.tokenCommand === 'string' ? v.tokenCommand : undefined,
  };
}

/** `files: {root, allowOutsideRoot, allow, maxBytes}`; relative paths are relative to the config file's folder. */
function filePolicy(v: unknown, file: string, base: string): FilePolicy {
  const where = `${file}: files`;
  const fields = fieldsOf(v);
  if (!fields) throw new UserError(`${where} must be a mapping with root, allowOutsideRoot, allow or maxBytes`);
  const { root, allowOutsideRoot, allow, maxBytes, ...rest } = fields;
  const unknown = Object.keys(rest).at(0);
  if (unknown !== undefined) throw new UserError(`${where}: unknown key '${unknown}' (expected root, allowOutsideRoot, allow, maxBytes)`);
  if (root !== undefined && (typeof root !== 'string' || root === '')) throw new UserError(`${where}.root must be a folder path`);
  if (allowOutsideRoot !== undefined && typeof allowOutsideRoot !== 'boolean') throw new UserError(`${where}.allowOutsideRoot must be true or false`);
  if (allow !== undefined && (!Array.isArray(allow) || !allow.every((a) => typeof a === 'string' && a !== '')))
    throw new UserError(`${where}.allow must be a list of file or folder paths`);
  const absolute = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  return {
    root: typeof root === 'string' ? absolute(root) : undefined,
    allowOutsideRoot: allowOutsideRoot === true,
    allow: Array.isArray(allow) ? allow.map((a) => absolute(a as string)) : undefined,
    maxBytes: maxBytes === undefined ? undefined : positiveInt(maxBytes, `${where}.maxBytes`),
  };
}

function apisConfig(v: unknown, file: string): ApiSettingsOverrides {
  const names = Object.keys(API_FIELDS) as ApiName[];
  if (!isObject(v)) throw new UserError(`${file}: apis must be a mapping of ${names.join(', ')}`);
  const out: Record<string, Record<string, string>> = {};
  for (const [name, settings] of Object.entries(v)) {
    // Own keys only: a name such as toString or constructor is no API (nor, below, a setting).
    const fields = Object.hasOwn(API_FIELDS, name) ? API_FIELDS[name as ApiName] : undefined;
    if (!fields) throw new UserError(`${file}: apis.${name} is not an API (expected ${names.join(', ')})`);
    if (!isObject(settings)) throw new UserError(`${file}: apis.${name} must be a mapping of ${Object.keys(fields).join(', ')}`);
    out[name] = {};
    for (const [field, value] of Object.entries(settings)) {
      const rule = Object.hasOwn(fields, field) ? fields[field] : undefined;
      if (!rule) throw new UserError(`${file}: apis.${name}.${field} is not a setting (expected ${Object.keys(fields).join(', ')})`);
      const text = value;
      if (typeof text !== 'string' || !rule.test(text)) throw new UserError(`${file}: apis.${name}.${field} must be a string like ${rule.source}`);
      out[name][field] = text;
    }
  }
  return out;
}

function localCloudConfig(v: unknown, file: string): { fixtures?: string } {
  const fields = fieldsOf(v);
  if (!fields || Object.keys(fields).some((k) => k !== 'fixtures') || (fields.fixtures !== undefined && typeof fields.fixtures !== 'string')) {
    throw new UserError(`${file}: localCloud must be {fixtures: FILE}`);
  }
  return { fixtures: fields.fixtures };
}

function historyConfig(v: unknown, file: string): { keep?: number; maxBytes?: number } {
  const fields = fieldsOf(v);
  if (!fields || Object.keys(fields).some((k) => k !== 'keep' && k !== 'maxBytes')) throw new UserError(`${file}: history must be {keep: N, maxBytes: BYTES}`);
  return {
    ...(fields.keep === undefined ? {} : { keep: positiveInt(fields.keep, `${file}: history.keep`) }),
    ...(fields.maxBytes === undefined ? {} : { maxBytes: positiveInt(fields.maxBytes, `${file}: history.maxBytes`) }),
  };
}

function positiveInt(v: unknown, where: string): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new UserError(`${where} must be a positive integer`);
  return n;
}

/** MOOR_ENDPOINT sets every service's base address at once; MOOR_PARALLELISM the default parallelism. */
function applyEnvironment(config: MoorConfig, env: NodeJS.ProcessEnv): MoorConfig {
  let endpoints = config.endpoints;
  if (env.MOOR_ENDPOINT) {
    const base = env.MOOR_ENDPOINT.replace(/\/+$/, '');
    endpoints = Object.fromEntries(SERVICE_NAMES.map((s) => [s, base]));
  }
  const parallelism = env.MOOR_PARALLELISM ? parseParallelism(env.MOOR_PARALLELISM, 'MOOR_PARALLELISM') : config.parallelism;
  return { ...config, endpoints, parallelism };
}

/**
 * Requests in flight per service, as MOOR_PARALLELISM or --parallelism give it (`given` names which):
 * the one check of both, read once (here for the variable; the flag is handed to the session).
 */
export function parseParallelism(text: string, given: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < 1) throw new UserError(`${given} must be a positive integer, not '${text}'`);
  return n;
}

/** Whether moor should start its built-in local cloud: no endpoint configured at all. */
export function usesLocalCloud(config: MoorConfig): boolean {
  return Object.keys(config.endpoints).length === 0;
}
