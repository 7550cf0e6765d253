// How moor evaluates a Check during plan: exactly one of quota, nameAvailable, eventstreamExists, spend.
import { UserError } from '../../core/diagnostics.js';
import { isObject, type JsonObject } from '../../core/json.js';
import type { CheckHandler, CheckResult, KindContext } from '../../core/kind.js';
import { eventstreamExists, nameAvailable, quota, spend } from './handler-evaluators.js';

type Evaluator = (ctx: KindContext, params: JsonObject) => Promise<CheckResult>;

const EVALUATORS: Readonly<Record<string, Evaluator>> = { quota, nameAvailable, eventstreamExists, spend };

export const check: CheckHandler = {
  async evaluate(ctx, spec) {
    const present = Object.keys(EVALUATORS).filter((k) => isObject(spec[k]));
    if (present.length !== 1) {
      throw new UserError(`a Check needs exactly one of ${Object.keys(EVALUATORS).join(', ')} (found ${present.length === 0 ? 'none' : present.join(', ')})`);
    }
    const [variant] = present;
    return EVALUATORS[variant](ctx, spec[variant] as JsonObject);
  },
};
