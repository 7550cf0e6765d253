// The `apis:` section of moor.config.yaml: which settings each service API takes and the rule each
// value follows. The configuration reads it here; the providers apply it over their defaults.

export interface ApiSettings {
  readonly containerInstance: { readonly apiVersion: string; readonly namespace: string };
  readonly sql: { readonly apiVersion: string; readonly namespace: string };
  readonly billing: { readonly apiVersion: string; readonly namespace: string };
  readonly lcs: { readonly apiVersion: string; readonly versionHeader: string };
}

export type ApiName = keyof ApiSettings;
export type ApiSettingsOverrides = { readonly [K in ApiName]?: Partial<ApiSettings[K]> };

/** The fields each API may set, with the rule a value must follow. */
export const API_FIELDS: Readonly<Record<ApiName, Readonly<Record<string, RegExp>>>> = {
  containerInstance: { apiVersion: /^[\w.-]{1,40}$/, namespace: /^[A-Za-z]\w*\.[A-Za-z][\w.]*$/ },
  sql: { apiVersion: /^[\w.-]{1,40}$/, namespace: /^[A-Za-z]\w*\.[A-Za-z][\w.]*$/ },
  billing: { apiVersion: /^[\w.-]{1,40}$/, namespace: /^[A-Za-z]\w*\.[A-Za-z][\w.]*$/ },
  lcs: { apiVersion: /^[\w.-]{1,40}$/, versionHeader: /^[A-Za-z][\w-]{0,60}$/ },
};
