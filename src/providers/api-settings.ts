// Per-API settings (moor.config.yaml `apis:`): api-version, and the provider namespace or version
// header where the seeds name them. The defaults are the seeds' values; the real services differ
// only here (DESIGN.md: the brand word kept in one place of configuration).
import { NAMESPACES, VERSION_HEADER } from './vendor.js';
import type { ApiSettings, ApiSettingsOverrides } from '../core/api-config.js';

export type { ApiSettings, ApiSettingsOverrides } from '../core/api-config.js';

export const DEFAULT_API_SETTINGS: ApiSettings = {
  containerInstance: { apiVersion: '2026-07-01', namespace: NAMESPACES.containerInstance },
  sql: { apiVersion: '2025-01-01', namespace: NAMESPACES.sql },
  billing: { apiVersion: '2024-04-01', namespace: NAMESPACES.billing },
  lcs: { apiVersion: '2017-09-15', versionHeader: VERSION_HEADER },
};

/** The settings in force: each configured value over the seeds' default. */
export function apiSettings(overrides: ApiSettingsOverrides = {}): ApiSettings {
  return {
    containerInstance: { ...DEFAULT_API_SETTINGS.containerInstance, ...overrides.containerInstance },
    sql: { ...DEFAULT_API_SETTINGS.sql, ...overrides.sql },
    billing: { ...DEFAULT_API_SETTINGS.billing, ...overrides.billing },
    lcs: { ...DEFAULT_API_SETTINGS.lcs, ...overrides.lcs },
  };
}
