// Holds a fresh plan to a saved one, resource by resource: the same action, the same live
// version and the same desired body (secrets compared by hash). What differs is refused, never
// applied in its new form; apply --plan never re-plans silently.
import { deepEqual } from '../diff/equal.js';
import { getAt, isObject, toPointer, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { isSensitivePath, mapSensitive, matchesSecret, SENSITIVE_MASK } from '../secrets.js';
import { sensitivePatterns } from '../placeholder-secrets.js';
import type { KindDefinition } from '../../core/kind.js';
import { compileRules } from '../diff/compiled-rules.js';
import { namedPath, namedSegmentsOf } from '../diff/named-path.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { diagnosed, type Diagnosed } from '../../core/diagnosed.js';
import { refusedStep, type PlannedStep } from './steps.js';
import type { SavedChange } from './saved-plan.js';
import { withOnlyReason } from './reasons.js';

/** The steps to apply: a step that no longer matches the saved plan carries why it is refused. */
export function holdToSavedPlan(steps: readonly PlannedStep[], saved: readonly SavedChange[], versions: ReadonlyMap<string, string>): Diagnosed<PlannedStep[]> {
  const savedBy = new Map(saved.map((c) => [c.address, c]));
  const fresh = new Set(steps.map((s) => s.change.address));
  const warnings = saved
    .filter((c) => c.action !== 'no-op' && !fresh.has(c.address))
    .map((c): Diagnostic => ({
      severity: 'warning',
      address: c.address,
      message: `is in the saved plan (${c.action}) but has nothing to do now; it is left alone`,
    }));
  return diagnosed(
    steps.map((step) => {
      const why = refusal(step, savedBy.get(step.change.address), versions.get(step.change.address));
      if (!why) return step;
      const action = step.change.action !== 'no-op' ? step.change.action : (savedBy.get(step.change.address)?.action as PlannedStep['change']['action']);
      // The plan shows why, under the change; apply fails it with the same words (its report names the address).
      return refusedStep(
        step,
        { ...withOnlyReason(step.change, { code: 'saved-plan-refused', text: `refused: ${why}` }), action },
        `refused: ${why}; run 'moor plan --out' again and review it`,
      );
    }),
    warnings,
  );
}

function refusal(step: PlannedStep, saved: SavedChange | undefined, version: string | undefined): string | undefined {
  const now = step.change.action;
  if (!saved) return now === 'no-op' ? undefined : `it was not in the saved plan, but would ${now} now (live changed since the plan)`;
  if (saved.action === 'no-op' && now === 'no-op') return undefined;
  if (saved.action !== now) return `the saved plan would ${saved.action} it, but it would ${now} now (live changed since the plan)`;
  if (version !== undefined && saved.liveVersion !== version) {
    return saved.liveVersion === undefined ? 'the saved plan pins no live version of it' : 'the live resource changed since the plan';
  }
  if (!step.desired) return undefined;
  return saved.desired
    ? bodyDifference(saved.desired, step.desired, sensitivePatterns(step.kind, step.manifest), step.kind)
    : 'the saved plan holds no desired body for it';
}

/**
 * Why the resolved body differs from the reviewed one (secrets by hash), or undefined when it does
 * not. Given the kind, a secret of the kind is named by its field path (containers[name=web]) and
 * a value a placeholder supplied to a plain field is reported as a changed value, never shown.
 */
export function bodyDifference(reviewed: JsonObject, resolved: JsonObject, sensitive: readonly string[], kind?: KindDefinition): string | undefined {
  const secrets: JsonPath[] = [];
  const comparable = mapSensitive(resolved, sensitive, (value, path) => {
    const hashed = getAt(reviewed, path) as JsonValue | undefined;
    if (!matchesSecret(value, hashed)) secrets.push(path);
    return hashed ?? null;
  });
  if (secrets.length > 0) {
    const path = secrets[0];
    const shown = kind ? fieldPath(resolved, path, kind) : toPointer(path);
    if (kind && !isSensitivePath(path, kind.sensitive) && getAt(reviewed, path) !== SENSITIVE_MASK) {
      return `its desired value at ${shown} is not the one reviewed in the plan`;
    }
    const masked = getAt(reviewed, path) === SENSITIVE_MASK;
    return masked
      ? `the plan holds no hash of the secret at ${shown} (a plan printed by --output json masks secrets; save plans with --out)`
      : `the secret at ${shown} is not the one the plan was made with`;
  }
  const at = firstDifference(reviewed, comparable, []);
  return at === undefined ? undefined : `its desired value at ${at || '/'} is not the one reviewed in the plan`;
}

/** '/properties/containers[name=web]/…': elements of the kind's named arrays by their key. */
function fieldPath(doc: JsonObject, path: JsonPath, kind: KindDefinition): string {
  if (kind.category !== 'resource') return toPointer(path);
  const rules = compileRules(kind.diff);
  return namedPath(namedSegmentsOf(doc, path, (arrayPath) => rules.keyOf(arrayPath)));
}

function firstDifference(a: JsonValue | undefined, b: JsonValue | undefined, path: JsonPath): string | undefined {
  if (a !== undefined && b !== undefined && deepEqual(a, b)) return undefined;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], [...path, k]);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], [...path, i]);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return a === undefined && b === undefined ? undefined : toPointer(path);
}
