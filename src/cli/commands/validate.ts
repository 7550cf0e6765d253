// moor validate: checks manifests only (no network, no secrets) and prints every problem found.
import { Option, type Command } from 'commander';
import { runConfig } from '../session-options.js';
import type { RegisterCommand } from './index.js';

interface ValidateFlags { output: 'text' | 'json' | 'github' }

export const registerValidate: RegisterCommand = (program, setExit) => {
  program
    .command('validate')
    .description('check manifests: schemas, references, dependencies (no network, no secrets)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(new Option('--output <format>', 'text, json or github (annotations and the job summary)').choices(['text', 'json', 'github']).default('text'))
    .action(async (paths: string[], flags: ValidateFlags, command: Command) => {
      setExit(await runValidate(paths, flags, command));
    });
};

async function runValidate(paths: string[], flags: ValidateFlags, command: Command): Promise<number> {
  const { loadRunManifests } = await import('../../engine/run-manifests.js');
  const { CATALOG } = await import('../catalog.js');
  const { policyGuard } = await import('../../policy/policy-guard.js');
  const { formatDiagnostic, hasErrors, sortDiagnostics } = await import('../../core/diagnostics.js');
  const { jsonText } = await import('../../core/foreign-text.js');
  const { checkPlaceholderFiles } = await import('../../engine/validate/check-files.js');
  const config = await runConfig(command);
  // Policies are compiled, and their rules that need no planned change evaluated (no network, no secrets).
  const guarding = { guard: policyGuard, context: { stack: config.stack?.name ?? '' } };
  const result = await loadRunManifests(config, paths, CATALOG, process.cwd(), guarding);
  // ${file:} placeholders are checked as plan reads them (files: in the config), none is read.
  const policy = config.files;
  const diagnostics = sortDiagnostics([...result.diagnostics, ...checkPlaceholderFiles(result.manifests, policy)]);
  if (flags.output === 'json') {
    const rows = diagnostics.map((d) => ({
      file: d.location?.file ?? null, line: d.location?.line ?? null, col: d.location?.col ?? null,
      severity: d.severity, message: d.address && !d.location ? `${d.address}: ${d.message}` : d.message,
      ...(d.policy !== undefined ? { policy: d.policy } : {}),
    }));
    process.stdout.write(jsonText(rows, 2) + '\n');
    return hasErrors(diagnostics) ? 1 : 0;
  }
  for (const d of diagnostics) process.stdout.write(formatDiagnostic(d) + '\n');
  if (flags.output === 'github') {
    const { githubValidateReport } = await import('../validate-github.js');
    githubValidateReport(diagnostics, result.files);
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const files = plural(result.files, 'file');
  if (errors > 0) {
    // Counts the files the problems are in, of the files read: '2 errors, 0 warnings in 1 of 5 files'.
    const where = new Set(diagnostics.map((d) => d.location?.file).filter((f) => f !== undefined)).size;
    const inFiles = where === result.files ? files : `${where} of ${files}`;
    process.stderr.write(`${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${inFiles}\n`);
    return 1;
  }
  const also = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
  process.stdout.write(`ok: ${plural(result.manifests.length, 'manifest')} in ${files} ${result.manifests.length === 1 ? 'is' : 'are'} valid${also}\n`);
  return 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
