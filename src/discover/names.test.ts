import { describe, expect, test } from 'vitest';
import { addressNames, fileNameFor, nameOf, secretName } from './names.js';

describe('discover names', () => {
  test("a name two live resources share takes each one's suffix; a unique one stays as it is", () => {
    const found = [
      { name: 'sales', suffix: '14f6071a' },
      { name: 'orders', suffix: 'aa' },
      { name: 'sales', suffix: 'edbdad49' },
    ];
    expect(addressNames(found, new Set())).toEqual(['sales-14f6071a', 'orders', 'sales-edbdad49']);
  });

  test('a name an existing manifest holds is not taken again', () => {
    expect(addressNames([{ name: 'web', suffix: 'rg-blue' }], new Set(['web']))).toEqual(['web-rg-blue']);
    expect(addressNames([{ name: 'web', suffix: 'rg-blue' }], new Set(['web', 'web-rg-blue']))).toEqual(['web-rg-blue-2']);
  });

  test('metadata names hold only what an address may: spaces and slashes become hyphens', () => {
    expect(nameOf('Sales Q1 / EMEA')).toBe('Sales-Q1-EMEA');
    expect(nameOf('***')).toBe('unnamed');
  });

  test('secret variables are readable, upper snake case and unique', () => {
    const used = new Set(['API_DB_PASSWORD']);
    expect(secretName(['api', 'DB_PASSWORD'], used)).toBe('API_DB_PASSWORD_2');
    expect(secretName(['web', 'registry.example.net'.split('.')[0], 'password'], used)).toBe('WEB_REGISTRY_PASSWORD');
    expect(secretName(['1st', 'key'], used)).toBe('S_1ST_KEY');
  });

  test('a file that exists is never reused: the next free number', () => {
    const present = new Set(['rg-web.yaml', 'rg-web.2.yaml']);
    expect(fileNameFor('RG-Web', (n) => present.has(n))).toBe('rg-web.3.yaml');
    expect(fileNameFor('rg-api', (n) => present.has(n))).toBe('rg-api.yaml');
  });
});
