// CEL for policies (@marcbachmann/cel-js): one environment with the variables object, stack and
// change; each expression parsed and type-checked once, its problems returned as values.
import { Environment, type ASTNode, type ParseResult } from '@marcbachmann/cel-js';

let base: Environment | undefined;

function policyEnvironment(): Environment {
  // Mixed literals (['a', 1]) are allowed, as in Kubernetes; `.?` chaining reads optional fields.
  base ??= new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true })
    .registerVariable('object', 'map')
    .registerVariable('stack', 'string')
    .registerVariable('change', 'dyn');
  return base;
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
  const env = iterationVariable ? policyEnvironment().clone().registerVariable(iterationVariable, 'dyn') : policyEnvironment();
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
