// The output formats of plan, drift and show (each is a reporter: reporters/reporter.ts).
import type { OutputFormat } from './reporters/reporter.js';

export type { OutputFormat };
/** Of drift and show; plan also streams `jsonl`. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'markdown', 'github'];
export const PLAN_OUTPUT_FORMATS: readonly OutputFormat[] = [...OUTPUT_FORMATS, 'jsonl'];
