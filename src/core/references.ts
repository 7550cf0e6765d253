// The `${env:NAME}`, `${file:path}` and `${ref:Kind/name#/pointer}` placeholders inside manifest values.
export type Reference = (
  | { readonly type: 'env'; readonly name: string }
  | { readonly type: 'file'; readonly path: string }
  | { readonly type: 'ref'; readonly address: string; readonly pointer: string }
) & {
  /** The placeholder as written, `${...}` included. */
  readonly raw: string;
  /** Where `raw` starts in the scanned string (the same placeholder may occur more than once). */
  readonly index: number;
};

export interface ReferenceSyntaxError {
  readonly raw: string;
  readonly message: string;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REF_TARGET = /^([A-Za-z]+)\/([^#\s]+)(#(\/.*)?)?$/;

/** Every placeholder in a string, with syntax errors for malformed ones. */
export function scanReferences(value: string): { refs: Reference[]; errors: ReferenceSyntaxError[] } {
  const refs: Reference[] = [];
  const errors: ReferenceSyntaxError[] = [];
  let after = 0;
  for (const m of value.matchAll(PLACEHOLDER)) {
    const index = m.index;
    if (index < after) continue; // inside a nested placeholder already reported whole
    const body = m[1];
    if (body.includes('${')) {
      const raw = value.slice(index, nestedEnd(value, index));
      after = index + raw.length;
      errors.push({
        raw,
        message: `nested placeholder ${raw}: a placeholder cannot hold another (only \${var:} is filled in first); write the path or name out, or take it from a stack variable`,
      });
      continue;
    }
    const raw = m[0];
    const colon = body.indexOf(':');
    const scheme = colon < 0 ? body : body.slice(0, colon);
    const arg = colon < 0 ? '' : body.slice(colon + 1);
    if (scheme === 'env') {
      if (ENV_NAME.test(arg)) refs.push({ type: 'env', name: arg, raw, index });
      else errors.push({ raw, message: `invalid environment variable name in ${raw}` });
    } else if (scheme === 'file') {
      if (arg.trim().length > 0) refs.push({ type: 'file', path: arg, raw, index });
      else errors.push({ raw, message: `empty file path in ${raw}` });
    } else if (scheme === 'ref') {
      const r = REF_TARGET.exec(arg);
      // Group 4, the #/pointer, is undefined when the reference names none.
      if (r) refs.push({ type: 'ref', address: `${r[1]}/${r[2]}`, pointer: r[4] || '', raw, index });
      else errors.push({ raw, message: `invalid reference ${raw}: expected \${ref:Kind/name#/json/pointer}` });
    } else if (scheme === 'var') {
      // A stack's value, substituted while loading (engine/load/stack-vars.ts), which reports a missing one.
    } else {
      errors.push({ raw, message: `unknown placeholder ${raw}: expected \${env:NAME}, \${file:path} or \${ref:Kind/name#/pointer}` });
    }
  }
  return { refs, errors };
}

/** Where a placeholder that starts at `start` and holds others ends: after the `}` that closes it, or the end of the text. */
function nestedEnd(value: string, start: number): number {
  let depth = 0;
  for (let i = start; i < value.length; i++) {
    if (value.startsWith('${', i)) {
      depth++;
      i++;
      continue;
    }
    if (value[i] === '}' && --depth === 0) return i + 1;
  }
  return value.length;
}

/** Whether a string contains any placeholder. */
export function hasPlaceholder(value: string): boolean {
  return /\$\{[^}]*\}/.test(value);
}
