// History: who started a run and from which commit of the manifests (user@host, or the CI's identity).
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { userInfo, hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { RunOrigin } from './history-run.js';

const GIT_TIMEOUT_MS = 5_000;
/** What a commit is marked with when the manifests differ from it. */
export const DIRTY = '+dirty';

/** Who and which commit, from the environment and the manifests' repository (no git: no commit). */
export async function runOrigin(env: NodeJS.ProcessEnv, paths: readonly string[], cwd: string): Promise<RunOrigin> {
  const ci = githubRun(env);
  const folder = manifestsFolder(paths, cwd);
  const head = insideRepository(folder, env) ? await gitCommit(folder) : undefined;
  const commit = head === undefined ? env.GITHUB_SHA : (await manifestsChanged(folder, paths, cwd)) ? `${head}${DIRTY}` : head;
  return { by: ci?.actor ?? localUser(env), ...(ci ? { ci: ci.run } : {}), ...(commit ? { commit } : {}) };
}

function localUser(env: NodeJS.ProcessEnv): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): the environment still names the user.
    user = env.USER ?? env.LOGNAME ?? `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return `${user}@${hostname()}`;
}

function githubRun(env: NodeJS.ProcessEnv): { actor: string; run: NonNullable<RunOrigin['ci']> } | undefined {
  if (env.GITHUB_ACTIONS !== 'true' || !env.GITHUB_ACTOR) return undefined;
  const server = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const url = env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined;
  const run = {
    system: 'github-actions',
    ...(env.GITHUB_RUN_ID ? { runId: env.GITHUB_RUN_ID + (env.GITHUB_RUN_ATTEMPT ? `.${env.GITHUB_RUN_ATTEMPT}` : '') } : {}),
    ...(url ? { url } : {}),
    ...(env.GITHUB_WORKFLOW ? { workflow: env.GITHUB_WORKFLOW } : {}),
    ...(env.GITHUB_REPOSITORY ? { repository: env.GITHUB_REPOSITORY } : {}),
  };
  return { actor: `${env.GITHUB_ACTOR} (GitHub Actions)`, run };
}

/** The folder whose repository holds the manifests: the first path's (a file's folder). */
function manifestsFolder(paths: readonly string[], cwd: string): string {
  const first = resolve(cwd, paths[0] ?? '.');
  try {
    return statSync(first).isDirectory() ? first : dirname(first);
  } catch {
    return cwd;
  }
}

/**
 * Whether git could find a repository around `folder`: a `.git` in it or a folder above, or GIT_DIR
 * set. Starting git costs a process per recorded run (hundreds of milliseconds of CPU from a large
 * process); outside any repository that buys nothing.
 */
function insideRepository(folder: string, env: NodeJS.ProcessEnv): boolean {
  if (env.GIT_DIR) return true;
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** HEAD of the repository around `folder`, or undefined (not a repository, no git installed, no commit yet). */
function gitCommit(folder: string): Promise<string | undefined> {
  return new Promise((res) => {
    execFile('git', ['-C', folder, 'rev-parse', '--verify', '--quiet', 'HEAD'], { timeout: GIT_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      const sha = stdout.trim();
      res(!err && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined);
    });
  });
}

/**
 * Whether the manifests under `paths` differ from HEAD: changed, staged, deleted or new files
 * (moor's own .moor folders left out). When git cannot tell, they count as unchanged.
 */
function manifestsChanged(folder: string, paths: readonly string[], cwd: string): Promise<boolean> {
  const pathspecs = (paths.length > 0 ? paths : ['.']).map((p) => resolve(cwd, p));
  return new Promise((res) => {
    execFile(
      'git',
      ['-C', folder, 'status', '--porcelain', '--', ...pathspecs, ':(exclude,glob)**/.moor/**'],
      { timeout: GIT_TIMEOUT_MS, windowsHide: true },
      (err, stdout) => {
        res(!err && typeof stdout === 'string' && stdout.trim() !== '');
      },
    );
  });
}
