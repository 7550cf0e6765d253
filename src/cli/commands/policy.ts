// moor policy test: runs the `tests:` of the Policy documents, as `conftest verify` runs a policy's tests.
import type { Command } from 'commander';
import { globalOptions } from '../session-options.js';
import type { Manifest } from '../../engine/manifest.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { RegisterCommand } from './register-command.js';
import type { IoHost } from '../io-host.js';

export const registerPolicy: RegisterCommand = (program, io, setExit) => {
  const policy = program.command('policy').description('work with Policy documents (guardrails in CEL)');
  policy
    .command('test')
    .description("run the policies' tests: cases (an object, a stack, a change) each policy must pass or fail; exit 1 when one does not")
    .argument('[paths...]', 'manifest files or folders holding Policy documents (default: .)')
    .action(async (paths: string[], _flags: unknown, command: Command) => {
      setExit(await runPolicyTest(io, paths, command));
    });
};

async function runPolicyTest(io: IoHost, paths: string[], command: Command): Promise<number> {
  const { CATALOG } = await import('../catalog.js');
  const { compilePolicies } = await import('../../policy/compile-policy.js');
  const { runPolicyTests } = await import('../../policy/policy-tests.js');
  const { POLICY_KIND } = await import('../../policy/policy-document.js');
  const { formatDiagnostic, hasErrors, sortDiagnostics } = await import('../../core/diagnostics.js');
  const loaded = await policyDocuments(io, command, paths);
  const documents = loaded.documents.filter((d) => d.kind === POLICY_KIND);
  const compiled = compilePolicies(documents, CATALOG, loaded.stacks);
  // Only what concerns the policies stops their tests: a file that does not parse, a broken Policy.
  const problems = sortDiagnostics([
    ...loaded.diagnostics.filter((d) => d.address === undefined || d.address.startsWith(`${POLICY_KIND}/`)),
    ...compiled.diagnostics,
  ]);
  for (const d of problems) io.stderr.write(formatDiagnostic(d) + '\n');
  if (hasErrors(problems)) {
    io.stderr.write('the policies have errors; no test was run\n');
    return 1;
  }
  const results = runPolicyTests(compiled.policies);
  for (const r of results) {
    io.stdout.write(`${r.passed ? 'PASS' : r.error ? 'ERROR' : 'FAIL'}  ${r.policy}: ${r.name}\n`);
    if (!r.passed) io.stdout.write(`      ${r.location.file}:${r.location.line}:${r.location.col}: ${r.detail}\n`);
  }
  const failed = results.filter((r) => !r.passed).length;
  if (results.length === 0) {
    io.stdout.write(documents.length === 0 ? 'no Policy documents found\n' : 'no policy has tests (add tests: to a Policy)\n');
    return 0;
  }
  io.stdout.write(`${results.length} ${results.length === 1 ? 'test' : 'tests'}, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

/**
 * The documents and problems of the manifests the tests run over: the chosen stack's; with stacks
 * and none chosen, every stack's (each case names its own stack), a Policy shared by several
 * stacks taken once.
 */
async function policyDocuments(
  io: IoHost,
  command: Command,
  paths: string[],
): Promise<{ documents: Manifest[]; diagnostics: Diagnostic[]; stacks: readonly string[] }> {
  const { loadConfig } = await import('../../engine/config.js');
  const { loadRunManifests } = await import('../../engine/run-manifests.js');
  const { CATALOG } = await import('../catalog.js');
  const { formatDiagnostic } = await import('../../core/diagnostics.js');
  const g = globalOptions(command);
  const config = loadConfig(g.config, io.cwd, io.env, g.stack);
  const stacks = config.stacks ?? [];
  if (config.stacks === undefined || config.stack !== undefined) return { ...(await loadRunManifests(config, paths, CATALOG, io.cwd)), stacks };
  const documents = new Map<string, Manifest>();
  const diagnostics = new Map<string, Diagnostic>();
  for (const stack of config.stacks) {
    const loaded = await loadRunManifests(loadConfig(g.config, io.cwd, io.env, { name: stack, source: 'flag' }), paths, CATALOG, io.cwd);
    for (const d of loaded.documents) documents.set(JSON.stringify([d.kind, d.name, d.spec]), d);
    for (const d of loaded.diagnostics) diagnostics.set(formatDiagnostic(d), d);
  }
  return { documents: [...documents.values()], diagnostics: [...diagnostics.values()], stacks };
}
