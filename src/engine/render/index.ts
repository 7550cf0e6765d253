// Renderers: plans and drift reports as text, JSON and markdown. Pure functions of a Plan.
export { renderChangeText, renderPlanText } from './plan-text.js';
export type { TextOptions } from './plan-text.js';
export { renderPlanJson } from './plan-json.js';
export { renderPlanMarkdown } from './plan-markdown.js';
export type { MarkdownOptions } from './plan-markdown.js';
export type { RenderMode } from './plan-view.js';
export { driftLine, failureLine, summaryLine, NO_CHANGES, NO_DRIFT } from './summary-line.js';
export { formatValue } from './format-value.js';
