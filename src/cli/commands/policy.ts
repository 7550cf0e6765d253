// moor policy test: runs the `tests:` of the Policy documents, as `conftest verify` runs a policy's tests.
import type { Command } from 'commander';
import { runConfig } from '../session-options.js';
import type { RegisterCommand } from './index.js';
import type { IoHost } from '../io-host.js';

export const registerPolicy: RegisterCommand = (program, io, setExit) => {
  const policy = program.command('policy').description('work with Policy documents (guardrails in CEL)');
  policy.command('test')
    .description("run the policies' tests: cases (an object, a stack, a change) each policy must pass or fail; exit 1 when one does not")
    .argument('[paths...]', 'manifest files or folders holding Policy documents (default: .)')
    .action(async (paths: string[], _flags: unknown, command: Command) => {
      setExit(await runPolicyTest(io, paths, command));
    });
};

async function runPolicyTest(io: IoHost, paths: string[], command: Command): Promise<number> {
  const { loadRunManifests } = await import('../../engine/run-manifests.js');
  const { CATALOG } = await import('../catalog.js');
  const { compilePolicy } = await import('../../policy/compile-policy.js');
  const { runPolicyTests } = await import('../../policy/policy-tests.js');
  const { POLICY_KIND } = await import('../../policy/policy-document.js');
  const { formatDiagnostic, hasErrors, sortDiagnostics } = await import('../../core/diagnostics.js');
  const config = await runConfig(io, command);
  const loaded = await loadRunManifests(config, paths, CATALOG, io.cwd);
  const documents = loaded.documents.filter((d) => d.kind === POLICY_KIND);
  const compiled = documents.map((d) => compilePolicy(d, CATALOG));
  // Only what concerns the policies stops their tests: a file that does not parse, a broken Policy.
  const problems = sortDiagnostics([...loaded.diagnostics.filter((d) => d.address === undefined || d.address.startsWith(`${POLICY_KIND}/`)), ...compiled.flatMap((c) => c.diagnostics)]);
  for (const d of problems) io.stderr.write(formatDiagnostic(d) + '\n');
  if (hasErrors(problems)) {
    io.stderr.write('the policies have errors; no test was run\n');
    return 1;
  }
  const results = runPolicyTests(compiled.map((c) => c.policy));
  for (const r of results) {
    io.stdout.write(`${r.passed ? 'PASS' : 'FAIL'}  ${r.policy}: ${r.name}\n`);
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
