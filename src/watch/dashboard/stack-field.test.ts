// The watch's JSON and query strings name the stack-less stack as the page expects (null, '' or absent), from moor's one spelling (undefined).
import { describe, expect, it } from 'vitest';
import { findStack, type DashboardStack } from './dashboard-documents.js';
import { stackField, stackOfQuery } from './stack-field.js';

describe('a stack in the dashboard JSON and its queries', () => {
  it('is null in JSON without stacks, its name with', () => {
    expect(stackField(undefined)).toBeNull();
    expect(stackField('prod')).toBe('prod');
  });

  it('is found by ?stack= absent or empty without stacks, by its name with', () => {
    expect(stackOfQuery(null)).toBeUndefined();
    expect(stackOfQuery('')).toBeUndefined();
    expect(stackOfQuery('prod')).toBe('prod');
    const unnamed = { name: undefined } as unknown as DashboardStack;
    const prod = { name: 'prod' } as unknown as DashboardStack;
    expect(findStack([unnamed], null)).toBe(unnamed);
    expect(findStack([unnamed], '')).toBe(unnamed);
    expect(findStack([unnamed, prod], 'prod')).toBe(prod);
    expect(findStack([prod], '')).toBeUndefined();
  });
});
