// ANSI colours for the text renderer; the CLI decides whether colour is on (TTY and no NO_COLOR).
import type { Action } from '../plan/types.js';

export type Style = 'green' | 'yellow' | 'red' | 'magenta' | 'bold' | 'dim';

const CODES: Readonly<Record<Style, [number, number]>> = {
  green: [32, 39],
  yellow: [33, 39],
  red: [31, 39],
  magenta: [35, 39],
  bold: [1, 22],
  dim: [2, 22],
};

export type Paint = (style: Style, text: string) => string;

export function painter(color: boolean): Paint {
  if (!color) return (_style, text) => text;
  return (style, text) => `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m`;
}

export const ACTION_STYLE: Readonly<Record<Action, Style>> = {
  create: 'green',
  update: 'yellow',
  replace: 'magenta',
  delete: 'red',
  run: 'magenta',
  'no-op': 'dim',
};

export const FIELD_OP_STYLE: Readonly<Record<'add' | 'remove' | 'replace', Style>> = {
  add: 'green',
  remove: 'red',
  replace: 'yellow',
};
