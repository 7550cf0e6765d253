// CEL for policies (@marcbachmann/cel-js): one environment with the variables object, stack and
// change; each expression parsed and type-checked once, its problems returned as values.
import { Environment, type ASTNode, type ParseResult } from '@marcbachmann/cel-js';

let base: Environment | undefined;

function policyEnvironment(): Environment {
  // Mixed literals (['a', 1]) are allowed, as in Kubernetes; `.?` chaining reads optional fields.
  base ??= metered(
    new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true })
      .registerVariable('object', 'map')
      .registerVariable('stack', 'string')
      .registerVariable('change', 'dyn'),
  );
  return base;
}

/**
 * The cost limit of one evaluation of a rule on one resource (as Kubernetes limits each CEL
 * expression): a step is one node evaluated (each element a macro visits is at least one), and a
 * string or list a step gives costs one more per 64 characters or elements. Under a second of work,
 * so one evaluation never holds the event loop near a watch lease's time (5 s at least).
 */
export const COST_LIMIT = 1_000_000;

/** What the evaluation under way has left to spend (evaluation is synchronous: one at a time). */
let meter = { left: Infinity };

/** The cost-limit error: thrown inside the library, told apart from CEL's own by its class. */
export class CostLimitExceeded extends Error {
  constructor() {
    super(`exceeds the cost limit of ${COST_LIMIT.toLocaleString('en-US')}`);
  }
}

/**
 * `env` with its evaluator counting steps. @marcbachmann/cel-js has structural limits for parsing
 * but no cost limit: every node's evaluation goes through its evaluator's run(), which a function
 * registered here reaches (a handler is called with the evaluator as `this`), and is wrapped once.
 */
interface Evaluator {
  run: (ast: ASTNode, ctx: unknown) => unknown;
}
let probed: Evaluator | undefined;

function metered(env: Environment, clone = false): Environment {
  // A clone inherits the probe with the functions it copies; its evaluator is its own.
  if (!clone)
    env.registerFunction('moorMeterProbe(): bool', function (this: Evaluator) {
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the probe exists to catch the library's evaluator, which it only passes as `this`
      probed = this;
      return true;
    });
  probed = undefined;
  env.parse('moorMeterProbe()')();
  const evaluator = probed as Evaluator | undefined;
  if (!evaluator || typeof evaluator.run !== 'function') throw new Error('@marcbachmann/cel-js: no evaluator to meter');
  const run = evaluator.run;
  evaluator.run = function (this: unknown, ast: ASTNode, ctx: unknown) {
    if (--meter.left < 0) throw new CostLimitExceeded();
    const value = run.call(this, ast, ctx);
    if (typeof value === 'string' || Array.isArray(value)) meter.left -= value.length >> 6;
    return value;
  };
  return env;
}

/** Runs `program` under the cost limit: its value, or `exceeded` when the limit stopped it. */
export function runMetered(program: CelProgram, variables: Record<string, unknown>): { value: unknown } | { error: unknown } | { exceeded: true } {
  const outer = meter;
  meter = { left: COST_LIMIT };
  try {
    const value: unknown = program.run(variables);
    return meter.left < 0 ? { exceeded: true } : { value };
  } catch (error) {
    return meter.left < 0 || error instanceof CostLimitExceeded ? { exceeded: true } : { error };
  } finally {
    meter = outer;
  }
}

export interface CelProgram {
  readonly source: string;
  readonly ast: ASTNode;
  /** Evaluates with the variables given; throws a CEL error as evaluation does. */
  readonly run: ParseResult;
}

export type Compiled =
  | { readonly ok: true; readonly program: CelProgram }
  /** `offset`: where in the source the problem is (0-based), when the library knows. */
  | { readonly ok: false; readonly message: string; readonly offset?: number };

/**
 * Parses and type-checks `source`; `result` is the type it must give ('bool', 'string'; dyn is
 * accepted: a field of `object` is known only when evaluated). `iterationVariable`: one more
 * variable in scope (the element of an all() whose predicate is compiled alone).
 */
export function compileCel(source: string, result: 'bool' | 'string', iterationVariable?: string): Compiled {
  const env = iterationVariable ? metered(policyEnvironment().clone().registerVariable(iterationVariable, 'dyn'), true) : policyEnvironment();
  let run: ParseResult;
  try {
    run = env.parse(source);
  } catch (err) {
    return problem('syntax error', err);
  }
  const checked = run.check();
  if (!checked.valid) return problem('type error', checked.error);
  if (checked.type !== result && checked.type !== 'dyn') {
    return { ok: false, message: `gives ${checked.type ?? 'nothing'}, not ${result}`, offset: 0 };
  }
  return { ok: true, program: { source, ast: run.ast, run } };
}

/** The library's own words without its multi-line source excerpt, and where it points. */
function problem(what: string, err: unknown): Compiled {
  const e = err as { summary?: unknown; message?: unknown; range?: { start?: unknown } } | undefined;
  const text = typeof e?.summary === 'string' ? e.summary : typeof e?.message === 'string' ? e.message.split('\n')[0] : String(err);
  const offset = typeof e?.range?.start === 'number' ? e.range.start : undefined;
  return { ok: false, message: `${what}: ${text}`, ...(offset !== undefined ? { offset } : {}) };
}

/** The words of an error thrown while evaluating, on one line. */
export function evaluationMessage(err: unknown): string {
  const e = err as { summary?: unknown; message?: unknown } | undefined;
  if (typeof e?.summary === 'string') return e.summary;
  return typeof e?.message === 'string' ? e.message.split('\n')[0] : String(err);
}

/** The direct operands of a node (nodes only). */
export function childNodes(node: ASTNode): ASTNode[] {
  const args: unknown = node.args;
  const out: ASTNode[] = [];
  const add = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (isNode(v)) out.push(v);
  };
  add(args);
  return out;
}

function isNode(v: unknown): v is ASTNode {
  return typeof v === 'object' && v !== null && 'op' in v && 'args' in v;
}

/** Whether the expression reads a variable (an identifier of that name anywhere in it). */
export function readsVariable(ast: ASTNode, name: string): boolean {
  if (ast.op === 'id') return ast.args === name;
  return childNodes(ast).some((n) => readsVariable(n, name));
}
