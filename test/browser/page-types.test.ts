// The dashboard's scripts are type-checked against the API's types (tsconfig.dashboard.json, run by
// npm run typecheck): the page as shipped passes, and a view reading fields the documents do not
// have is refused (/api/status's included), so a change on one side without the other fails the build.
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ts } from '../support/typescript.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The messages of one type check of these files with the dashboard's compiler options, by file (one
 * program for all: parsing the DOM and node libraries and the engine's types is most of the work).
 */
function typeErrors(files: readonly string[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.dashboard.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.dashboard.json did not parse');
  const host = ts.createCompilerHost(config.options);
  // As tsc (npm run typecheck) parses: JSDoc in .ts and .d.ts files only where it can make a type error (the
  // DOM library is mostly documentation); the dashboard's .js files, whose types are JSDoc, are parsed whole.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const program = ts.createProgram({ rootNames: files.map((f) => join(ROOT, f)), options: config.options, host });
  const byFile = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? relative(ROOT, d.file.fileName) : '(no file)';
    byFile.set(file, [...(byFile.get(file) ?? []), ts.flattenDiagnosticMessageText(d.messageText, '\n')]);
  }
  return byFile;
}

test('the dashboard as shipped type-checks against the API types, and a view that drifted from them does not', () => {
  const errors = typeErrors(['assets/dashboard/app.js', 'test/fixtures/dashboard-drift/wrong-view.js']);
  expect(errors.get('assets/dashboard/app.js')).toEqual([]);
  expect(errors.get('test/fixtures/dashboard-drift/wrong-view.js')).toEqual([
    expect.stringContaining("Property 'vertices' does not exist on type 'GraphLayout'"),
    expect.stringContaining("Property 'requestsPerHour' does not exist on type 'ServiceRates'"),
    expect.stringContaining("Property 'consecutiveErrors' does not exist on type 'StackStatus'"),
  ]);
  // Nothing else: no error in a file either of them imports, none without a file.
  expect([...errors.keys()]).toEqual(['assets/dashboard/app.js', 'test/fixtures/dashboard-drift/wrong-view.js']);
});
