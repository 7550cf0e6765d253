// moor validate: checks manifests only (no network, no secrets) and prints every problem found.
import { Option, type Command } from 'commander';
import { globalOptions, runConfig } from '../session-options.js';
import { UserError, type Diagnostic } from '../../core/diagnostics.js';
import type { MoorConfig } from '../../engine/config.js';
import type { RegisterCommand } from './register-command.js';
import type { IoHost } from '../io-host.js';

interface ValidateFlags {
  output: 'text' | 'json' | 'github';
  allStacks?: boolean;
}

export const registerValidate: RegisterCommand = (program, io, setExit) => {
  program
    .command('validate')
    .description('check manifests: schemas, references, dependencies (no network, no secrets)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(new Option('--output <format>', 'text, json or github (annotations and the job summary)').choices(['text', 'json', 'github']).default('text'))
    .option('--all-stacks', 'validate every stack of moor.config.yaml with its own paths and variables (exit 1 when any has errors)')
    .action(async (paths: string[], flags: ValidateFlags, command: Command) => {
      setExit(await runValidate(io, paths, flags, command));
    });
};

/** What validating one stack (or the manifests without stacks) found. */
interface Validated {
  readonly stack?: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly manifests: number;
  readonly files: number;
}

async function runValidate(io: IoHost, paths: string[], flags: ValidateFlags, command: Command): Promise<number> {
  const { hasErrors } = await import('../../core/diagnostics.js');
  let results: Validated[];
  if (flags.allStacks) {
    const { loadConfig } = await import('../../engine/config.js');
    const { stacksOf } = await import('../all-stacks.js');
    const g = globalOptions(command);
    if (g.stack?.source === 'flag') throw new UserError('--all-stacks validates every stack: do not also give --stack');
    const stacks = stacksOf(loadConfig(g.config, io.cwd, io.env));
    results = [];
    for (const stack of stacks) results.push(await validateOne(io, loadConfig(g.config, io.cwd, io.env, { name: stack, source: 'flag' }), paths));
  } else {
    results = [await validateOne(io, await runConfig(io, command), paths)];
  }
  if (flags.output === 'json') {
    const rows = results.flatMap((r) =>
      r.diagnostics.map((d) => ({
        ...(r.stack !== undefined && flags.allStacks ? { stack: r.stack } : {}),
        file: d.location?.file ?? null,
        line: d.location?.line ?? null,
        col: d.location?.col ?? null,
        severity: d.severity,
        message: d.address && !d.location ? `${d.address}: ${d.message}` : d.message,
        ...(d.policy !== undefined ? { policy: d.policy } : {}),
      })),
    );
    const { jsonText } = await import('../../core/foreign-text.js');
    io.stdout.write(jsonText(rows, 2) + '\n');
    return results.some((r) => hasErrors(r.diagnostics)) ? 1 : 0;
  }
  if (flags.allStacks && flags.output === 'github') {
    // One report for a pull-request comment: the stacks' sections under one heading, as plan's.
    const { appendStepSummary } = await import('../github-output.js');
    appendStepSummary(`## moor validate: ${results.length} stack${results.length === 1 ? '' : 's'}`, io.env);
  }
  const codes: number[] = [];
  for (const r of results) {
    if (flags.allStacks) io.stdout.write(`${codes.length > 0 ? '\n' : ''}=== stack ${r.stack} ===\n`);
    codes.push(await report(io, r, flags.output, r.stack));
  }
  return Math.max(...codes);
}

async function validateOne(io: IoHost, config: MoorConfig, paths: string[]): Promise<Validated> {
  const { loadRunManifests } = await import('../../engine/run-manifests.js');
  const { CATALOG } = await import('../catalog.js');
  const { lazyPolicyGuard } = await import('../../policy/lazy-guard.js');
  const { sortDiagnostics } = await import('../../core/diagnostics.js');
  const { checkPlaceholderFiles } = await import('../../engine/validate/check-files.js');
  const { checkTypedPlaceholders } = await import('../../engine/validate/check-typed-placeholders.js');
  // Policies are compiled, and their rules that need no planned change evaluated (no network, no secrets).
  const guarding = { guard: lazyPolicyGuard, context: config.stack ? { stack: config.stack.name } : {} };
  const result = await loadRunManifests(config, paths, CATALOG, io.cwd, guarding);
  // ${file:} placeholders are checked as plan reads them (files: in the config), none is read.
  // An ${env:} filling a number or boolean is typed and checked as plan will (it is never a secret).
  const typed = checkTypedPlaceholders(result.manifests, CATALOG, io.env);
  const diagnostics = sortDiagnostics([...result.diagnostics, ...checkPlaceholderFiles(result.manifests, config.files), ...typed]);
  return { stack: config.stack?.name, diagnostics, manifests: result.manifests.length, files: result.files };
}

/** Prints one result as text (and github's annotations); `stack`: the stack validated, named in the summary line. */
async function report(io: IoHost, result: Validated, output: 'text' | 'github', stack: string | undefined): Promise<number> {
  const { formatDiagnostic } = await import('../../core/diagnostics.js');
  const { diagnostics } = result;
  for (const d of diagnostics) io.stdout.write(formatDiagnostic(d) + '\n');
  if (output === 'github') {
    const { githubValidateReport } = await import('../validate-github.js');
    githubValidateReport(io, diagnostics, result.files, stack);
  }
  const named = stack === undefined ? '' : `stack ${stack}: `;
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const files = plural(result.files, 'file');
  if (errors > 0) {
    // Counts the files the problems are in, of the files read: '2 errors, 0 warnings in 1 of 5 files'.
    const where = new Set(diagnostics.map((d) => d.location?.file).filter((f) => f !== undefined)).size;
    const inFiles = where === result.files ? files : `${where} of ${files}`;
    io.stderr.write(`${named}${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${inFiles}\n`);
    return 1;
  }
  const also = warnings > 0 ? ` (${plural(warnings, 'warning')})` : '';
  io.stdout.write(`${named}ok: ${plural(result.manifests, 'manifest')} in ${files} ${result.manifests === 1 ? 'is' : 'are'} valid${also}\n`);
  return 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
