// GitHub Actions: workflow-command annotations for diagnostics, and the markdown report appended
// to the job summary ($GITHUB_STEP_SUMMARY), for `--output github`.
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { addressedMessage, type Diagnostic } from '../core/diagnostics.js';
import { lineText } from '../core/foreign-text.js';
import { fileErrorMessage } from '../engine/file-errors.js';
import { UserError } from '../core/diagnostics.js';

/**
 * Escapes a workflow command's message by GitHub's rules (%, CR, LF: a line break shows in the
 * annotation), then every other control character as lineText shows it.
 */
function escapeData(text: string): string {
  return lineText(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escapes a workflow command's property value (also : and ,). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Folder -> its repository root (undefined: none), for one batch of annotations. */
type RepositoryRoots = Map<string, string | undefined>;

/**
 * `::error file=F,line=L,col=C::MESSAGE` (`::warning …` for warnings); the address leads the message as in the text (addressedMessage).
 * `roots` lets a batch walk each folder up once.
 */
export function annotation(d: Diagnostic, cwd: string, roots: RepositoryRoots = new Map()): string {
  const props = d.location ? ` file=${escapeProperty(repositoryPath(d.location.file, cwd, roots))},line=${d.location.line},col=${d.location.col}` : '';
  return `::${d.severity}${props}::${escapeData(addressedMessage(d))}`;
}

/**
 * GitHub places an annotation by its path from the repository's root; moor's paths are from the
 * folder it runs in (`cwd`), which may be a subfolder (the action's working-directory). The root is the
 * nearest folder up with a `.git` (a folder, or a file in a worktree), as the runner finds it.
 */
function repositoryPath(file: string, cwd: string, roots: RepositoryRoots): string {
  const abs = resolve(cwd, file);
  const root = repositoryRoot(dirname(abs), roots);
  return root === undefined ? file : relative(root, abs).split(sep).join('/');
}

// Remembered per batch, not per process: a long-lived process (moor watch) must see a .git made later.
function repositoryRoot(start: string, roots: RepositoryRoots): string | undefined {
  if (roots.has(start)) return roots.get(start);
  let root: string | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) {
      root = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  roots.set(start, root);
  return root;
}

/** Annotations of `diagnostics`, whose files are relative to `cwd` (the run's folder). */
export function writeAnnotations(diagnostics: readonly Diagnostic[], write: (line: string) => void, cwd: string): void {
  const roots: RepositoryRoots = new Map();
  for (const d of diagnostics) write(annotation(d, cwd, roots));
}

/** Appends markdown to the job summary when GitHub names the file; a step outside Actions has none. */
export function appendStepSummary(markdown: string, env: Readonly<NodeJS.ProcessEnv>): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, markdown.trimEnd() + '\n\n');
  } catch (err) {
    throw new UserError(`GITHUB_STEP_SUMMARY: ${fileErrorMessage(err, file) ?? (err as Error).message}`);
  }
}
