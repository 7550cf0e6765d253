// The moor commands of one step of the GitHub Action (action.yml), run in one Node process: each
// `node bin/moor.js` start loads the whole command line again (more so in the action, whose tsc-only
// build has no bundle), and a step ran two or three of them. The CLI's main(argv, io) runs one
// command per call, so a step's commands run one after another here, as the script ran them.
//   action-run.mjs check COUNT VALIDATE_ARGS… COMMAND ARGS…
//       validate quietly (--output json, nothing printed); when the manifests are invalid or COMMAND
//       is validate, validate again with --output github (its annotations and report), otherwise
//       COMMAND ARGS… (the first COUNT arguments are validate's: paths, --config, stacks)
//   action-run.mjs plan-args PLAN_FILE
//       the saved plan's stack (or paths) and options as `moor plan` takes them, each ended by NUL
//   action-run.mjs replan PLAN_FILE FRESH_FILE
//       plans the checked-out commit again as PLAN_FILE was planned, saves it to FRESH_FILE and,
//       when that plan succeeds (0 or 2), applies exactly it
// Exits with the exit code of the last command run.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';

/** The plan file's inputs as arguments of `moor plan` (its stack or paths, targets, replacements, allowed deletions, prune). */
function planArgs(file) {
  const inputs = JSON.parse(readFileSync(resolve(file), 'utf8')).inputs ?? {};
  const args = inputs.stack ? ['--stack', inputs.stack] : [...(inputs.paths ?? [])];
  for (const t of inputs.targets ?? []) args.push('--target', t);
  for (const r of inputs.replace ?? []) args.push('--replace', r);
  for (const d of inputs.allowDestructive ?? []) args.push('--allow-destructive', d);
  if (inputs.prune) args.push('--prune');
  return args;
}

/** The built command line as bin/moor.js loads it: the bundle when it is there and not stale, else dist/cli/. */
async function loadCli() {
  // As bin/moor.js does: V8 keeps the heap within 25 % of what survived its last full collection.
  if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString('--heap-growing-percent=25');
  const built = (path) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false });
  const entry = built('../dist/cli/main.js');
  if (!entry) {
    process.stderr.write(
      `moor is not built: ${new URL('../dist/', import.meta.url).pathname} is missing; run 'npm ci' (or 'npm run build') in ${new URL('..', import.meta.url).pathname}, or install a packed moor (npm pack)\n`,
    );
    process.exit(1);
  }
  const bundle = built('../dist/bundle/moor.js');
  const [mainModule, ioModule] =
    bundle && bundle.mtimeMs >= entry.mtimeMs
      ? ['../dist/bundle/moor.js', '../dist/bundle/process-io.js']
      : ['../dist/cli/main.js', '../dist/cli/process-io.js'];
  const [{ main }, { processIo }] = await Promise.all([import(mainModule), import(ioModule)]);
  const io = processIo();
  const bin = new URL('../bin/moor.js', import.meta.url).pathname;
  /** Runs `moor ARGS…`, its output discarded when `quiet`; resolves to its exit code. */
  return (args, { quiet = false } = {}) => {
    const discard = { write: () => true };
    return main([process.execPath, bin, ...args], quiet ? { ...io, stdout: discard, stderr: discard } : io);
  };
}

async function check([count, ...rest]) {
  const validateArgs = rest.slice(0, Number(count));
  const [command, ...args] = rest.slice(Number(count));
  const moor = await loadCli();
  // Each diagnostic annotated once: by validate when the manifests are invalid, else by the command.
  const valid = (await moor(['validate', ...validateArgs, '--output', 'json'], { quiet: true })) === 0;
  if (!valid || command === 'validate') return moor(['validate', ...validateArgs, '--output', 'github']);
  return moor([command, ...args]);
}

async function replan([planFile, fresh]) {
  const args = planArgs(planFile);
  const moor = await loadCli();
  process.stdout.write('moor: the reviewed plan is stale (another change was applied first); planning this commit again and applying exactly that plan\n');
  const planned = await moor(['plan', ...args, '--out', fresh, '--output', 'github']);
  if (planned !== 0 && planned !== 2) return planned;
  return moor(['apply', '--plan', fresh, '--output', 'github']);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'check') process.exitCode = await check(rest);
else if (mode === 'replan') process.exitCode = await replan(rest);
else if (mode === 'plan-args')
  process.stdout.write(
    planArgs(rest[0])
      .map((a) => a + '\0')
      .join(''),
  );
else {
  process.stderr.write('usage: action-run.mjs check COUNT VALIDATE_ARGS… COMMAND ARGS… | plan-args PLAN_FILE | replan PLAN_FILE FRESH_FILE\n');
  process.exitCode = 2;
}
