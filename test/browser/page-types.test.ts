// The dashboard's scripts are type-checked against the API's types (tsconfig.dashboard.json, run by
// npm run typecheck): the page as shipped passes, and a view reading fields the documents do not
// have is refused (/api/status's included), so a change on one side without the other fails the build.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The messages of a type check of these files with the dashboard's compiler options. */
function typeErrors(files: readonly string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.dashboard.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.dashboard.json did not parse');
  const program = ts.createProgram({ rootNames: files.map((f) => join(ROOT, f)), options: config.options });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('the dashboard as shipped type-checks against the API types, and a view that drifted from them does not', () => {
  expect(typeErrors(['assets/dashboard/app.js'])).toEqual([]);
  const errors = typeErrors(['test/fixtures/dashboard-drift/wrong-view.js']);
  expect(errors).toEqual([
    expect.stringContaining("Property 'vertices' does not exist on type 'GraphLayout'"),
    expect.stringContaining("Property 'requestsPerHour' does not exist on type 'ServiceRates'"),
    expect.stringContaining("Property 'consecutiveErrors' does not exist on type 'StackStatus'"),
  ]);
});
