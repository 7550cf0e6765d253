// Loading: `${var:NAME}` placeholders take the selected stack's values as each document is read,
// before overlays merge and before validation, so every stack is validated with its own values.
import type { Diagnostic } from '../../core/diagnostics.js';
import { diagnosed, type Diagnosed } from '../../core/diagnosed.js';
import { isObject, type JsonPath, type JsonValue } from '../../core/json.js';
import type { SourceMap } from '../manifest.js';
import { locatePlaceholder } from './placeholder-location.js';

/** What a document's `${var:}` placeholders are resolved from: the stack's name (for messages) and values. */
export interface StackValues {
  readonly name: string;
  readonly vars: Readonly<Record<string, string | number | boolean>>;
}

const MARK = '${var:';
const VAR_PLACEHOLDER = /\$\{var:([^}]*)\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The document with its `${var:}` placeholders replaced, and the problems of those it could not replace: a placeholder that is the whole value
 * takes the variable's type (a number stays a number), one inside a longer string its text. A
 * missing variable, or any `${var:}` without a stack, is an error at the placeholder; the value is
 * then left as written. Documents without the mark are returned as they are, untouched.
 */
export function substituteStackVars(value: unknown, source: SourceMap, stack: StackValues | undefined): Diagnosed<unknown> {
  let diagnostics: Diagnostic[] | undefined; // most documents have none: no array for them
  // One path, pushed and popped as the walk goes (a copy per value would be most of the work on
  // 10,000 manifests); a placeholder's problem copies it.
  const path: (string | number)[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes(MARK) ? substitute(v, [...path]) : v;
    if (Array.isArray(v)) {
      return mapIfChanged(v, (item, i) => {
        path.push(i);
        const next = walk(item);
        path.pop();
        return next;
      });
    }
    if (isObject(v)) {
      let out: Record<string, JsonValue> | undefined;
      for (const k in v) {
        const item = v[k];
        path.push(k);
        const next = walk(item);
        path.pop();
        if (next !== item) (out ??= { ...v })[k] = next as JsonValue;
      }
      return out ?? v;
    }
    return v;
  };
  const substitute = (text: string, path: JsonPath): unknown => {
    const matches = [...text.matchAll(VAR_PLACEHOLDER)];
    const problem = (raw: string, nth: number, message: string) => {
      (diagnostics ??= []).push({ severity: 'error', message, location: locatePlaceholder(source.locate(path), raw, nth, source.path), code: 'stack.var' });
    };
    const values = matches.map((m, i) => {
      const [raw, name] = m;
      const nth = matches.slice(0, i).filter((o) => o[0] === raw).length;
      if (!VAR_NAME.test(name)) {
        problem(raw, nth, `invalid variable name in ${raw}`);
        return undefined;
      }
      if (!stack) {
        problem(raw, nth, `${raw} takes a stack's value, but no stack is selected (define stacks: in moor.config.yaml and give --stack NAME)`);
        return undefined;
      }
      const found = Object.prototype.hasOwnProperty.call(stack.vars, name) ? stack.vars[name] : undefined;
      if (found === undefined) {
        problem(raw, nth, `variable ${name} is not set for stack ${stack.name} (used by ${raw}; add it to stacks.${stack.name}.vars)`);
      }
      return found;
    });
    // A value is undefined exactly where a problem was reported: the text stays as it was.
    if (values.includes(undefined)) return text;
    if (matches.length === 1 && matches[0][0] === text) return values[0];
    let i = 0;
    return text.replace(VAR_PLACEHOLDER, () => String(values[i++]));
  };
  const substituted = walk(value);
  return diagnosed(substituted, diagnostics);
}

function mapIfChanged<T>(list: readonly T[], fn: (item: T, i: number) => unknown): unknown {
  let out: unknown[] | undefined;
  list.forEach((item, i) => {
    const next = fn(item, i);
    if (next !== item) (out ??= [...list])[i] = next;
  });
  return out ?? list;
}
