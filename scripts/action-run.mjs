// The moor commands of one step of the GitHub Action (action.yml), run in one Node process: each
// `node bin/moor.js` start loads the whole command line again (more so in the action, whose tsc-only
// build has no bundle), and a step ran two or three of them. The CLI's main(argv, io) runs one
// command per call, so a step's commands run one after another here, as the script ran them.
//   action-run.mjs check COUNT VALIDATE_ARGS… COMMAND ARGS…
//       COMMAND validate: validate with --output github (its annotations and report). Otherwise
//       validate quietly (--output json, nothing printed); when the manifests are invalid, validate
//       again with --output github, otherwise COMMAND ARGS… (the first COUNT arguments are
//       validate's: paths, --config, stacks)
//   action-run.mjs apply PLAN_FILE ON_STALE_PLAN FRESH_FILE ARGS…
//       moor apply --plan PLAN_FILE ARGS… --output github (its stderr on stdout, as `2>&1` sent it);
//       when the plan is refused as stale, with ON_STALE_PLAN `replan` plans the checked-out commit
//       again as PLAN_FILE was planned, saves that to FRESH_FILE and, when it succeeds (0 or 2),
//       applies exactly it; otherwise fails saying how to recover
// Exits with the exit code of the last command run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadBuiltCli } from '../bin/built-cli.js';

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

/** The built command line as bin/moor.js loads it (bin/built-cli.js): `moor ARGS…` (its output to `streams` when given), resolving to its exit code. */
async function loadCli() {
  const { main, processIo } = await loadBuiltCli(new URL('..', import.meta.url));
  const io = processIo();
  const bin = new URL('../bin/moor.js', import.meta.url).pathname;
  return (args, streams = {}) => main([process.execPath, bin, ...args], { ...io, ...streams });
}

async function check([count, ...rest]) {
  const validateArgs = rest.slice(0, Number(count));
  const [command, ...args] = rest.slice(Number(count));
  const moor = await loadCli();
  const annotated = () => moor(['validate', ...validateArgs, '--output', 'github']);
  if (command === 'validate') return annotated();
  // Each diagnostic annotated once: by validate when the manifests are invalid, else by the command.
  const discard = { write: () => true };
  const valid = (await moor(['validate', ...validateArgs, '--output', 'json'], { stdout: discard, stderr: discard })) === 0;
  if (!valid) return annotated();
  return moor([command, ...args]);
}

/** Refused as a whole (nothing applied): another merge applied first, or main moved on. */
const STALE = /saved plan .* (is stale|was made from other manifests)/;

async function apply([planFile, onStale, fresh, ...args]) {
  const moor = await loadCli();
  let said = '';
  // Both streams to stdout, in order, and kept to be searched for the refusal.
  const out = {
    isTTY: false,
    write: (chunk, encoding) => ((said += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()), process.stdout.write(chunk, encoding)),
  };
  const applied = await moor(['apply', '--plan', planFile, ...args, '--output', 'github'], { stdout: out, stderr: out });
  if (applied !== 1 || !STALE.test(said)) return applied;
  const replan = planArgs(planFile);
  if (onStale !== 'replan') {
    process.stdout.write(
      `::error::moor apply: the reviewed plan is stale (state or the manifests moved on since it was reviewed: another change was applied first); nothing was applied. Plan this commit again and apply it: re-run with on-stale-plan: replan, or run 'moor plan ${replan.join(' ')} --out plan.json', review it and 'moor apply --plan plan.json'\n`,
    );
    return 1;
  }
  process.stdout.write('moor: the reviewed plan is stale (another change was applied first); planning this commit again and applying exactly that plan\n');
  const planned = await moor(['plan', ...replan, '--out', fresh, '--output', 'github']);
  if (planned !== 0 && planned !== 2) return planned;
  return moor(['apply', '--plan', fresh, '--output', 'github']);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'check') process.exitCode = await check(rest);
else if (mode === 'apply') process.exitCode = await apply(rest);
else {
  process.stderr.write('usage: action-run.mjs check COUNT VALIDATE_ARGS… COMMAND ARGS… | apply PLAN_FILE ON_STALE_PLAN FRESH_FILE ARGS…\n');
  process.exitCode = 2;
}
