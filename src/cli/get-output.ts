// moor get: rows printed as an aligned table, RFC 4180 CSV, or JSON.
import { jsonText, lineText } from '../core/foreign-text.js';
import type { IoHost } from './io-host.js';

export type GetFormat = 'table' | 'json' | 'csv';
export const GET_FORMATS: readonly GetFormat[] = ['table', 'json', 'csv'];

export type Cell = string | number | boolean | undefined;

export interface Column<T> {
  readonly header: string;
  readonly value: (row: T) => Cell;
  /** Numbers read best right-aligned. */
  readonly align?: 'left' | 'right';
  /** Longest cell in a table (CSV and JSON are never cut). */
  readonly maxWidth?: number;
}

function text(cell: Cell): string {
  return cell === undefined ? '' : String(cell);
}

function cut(s: string, max: number | undefined): string {
  // Line breaks would break the table's rows; a service's other control characters show as escapes.
  const one = lineText(s.replace(/\s*[\r\n]+\s*/g, ' '));
  return max !== undefined && one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** An aligned table with a header row; `extra` rows (totals) follow a blank line, aligned the same. */
export function renderTable<T>(columns: readonly Column<T>[], rows: readonly T[], extra: readonly Cell[][] = []): string {
  const body = rows.map((r) => columns.map((c) => cut(text(c.value(r)), c.maxWidth)));
  const tail = extra.map((cells) => columns.map((c, i) => cut(text(cells[i]), c.maxWidth)));
  const header = columns.map((c) => c.header.toUpperCase());
  const widths = columns.map((_, i) => Math.max(...[header, ...body, ...tail].map((cells) => cells[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((s, i) => (columns[i].align === 'right' ? s.padStart(widths[i]) : s.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(header), ...body.map(line)];
  if (tail.length > 0) out.push('', ...tail.map(line));
  return out.join('\n') + '\n';
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end in CRLF. */
export function csvField(cell: Cell): string {
  const s = text(cell);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderCsv<T>(columns: readonly Column<T>[], rows: readonly T[], extra: readonly Cell[][] = []): string {
  const lines = [
    columns.map((c) => csvField(c.header)),
    ...rows.map((r) => columns.map((c) => csvField(c.value(r)))),
    ...extra.map((cells) => columns.map((_, i) => csvField(cells[i]))),
  ];
  return lines.map((cells) => cells.join(',')).join('\r\n') + '\r\n';
}

export function renderJson(value: unknown): string {
  return jsonText(value, 2) + '\n';
}

/** Prints rows in the chosen format; `json` is what JSON output holds (defaults to the rows). */
export function printRows<T>(
  io: IoHost,
  format: GetFormat,
  columns: readonly Column<T>[],
  rows: readonly T[],
  options: { json?: unknown; extra?: readonly Cell[][] } = {},
): void {
  if (format === 'json') io.stdout.write(renderJson(options.json ?? rows));
  else if (format === 'csv') io.stdout.write(renderCsv(columns, rows, options.extra));
  else io.stdout.write(renderTable(columns, rows, options.extra));
}
