// moor watch: a continuous reconciler — plan every interval and after manifest edits, report or repair, serve health and metrics.
import { type Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { collect } from '../session-options.js';

interface WatchFlags {
  allStacks?: boolean;
  interval: string;
  selfHeal?: boolean;
  prune?: boolean;
  allowDestructive?: string[];
  listen?: string;
  listenToken?: string;
  listenHost?: string[];
  replicaId?: string;
}

export const registerWatch: RegisterCommand = (program, io, setExit) => {
  program
    .command('watch')
    .description('reconcile continuously: plan every interval and soon after a manifest changes; report drift, or repair it with --self-heal')
    .argument('[paths...]', 'manifest files or folders (default: .; a stack takes its own)')
    .option('--all-stacks', 'watch every stack of moor.config.yaml (each on its own; one failing never stops another)')
    .option('--interval <duration>', 'time between plans of a stack, jittered by ±10% (30s, 5m, 1h)', '60s')
    .option('--self-heal', 'apply what the plan finds (as moor apply would: protect holds; no prune, no destructive change unless asked)')
    .option('--prune', 'with --self-heal, delete what left the manifests')
    .option(
      '--allow-destructive <address>',
      'with --self-heal, make this destructive change too (a refresh job, a replace that loses data; a protected job runs only when named) (repeatable)',
      collect,
    )
    .option('--listen <host:port>', 'serve the dashboard (/), /healthz, /readyz, /metrics and /api/status here (e.g. 127.0.0.1:9464; port 0 picks one)')
    .option('--listen-token <token>', 'bearer token every request to --listen must carry; required beyond loopback')
    .option(
      '--listen-host <name>',
      'a host name requests to --listen may give as Host besides its address (a proxy or DNS name in front; NAME or NAME:PORT); others get 421 (repeatable)',
      collect,
    )
    .option(
      '--replica-id <id>',
      "with a PostgreSQL state, this replica's id among the replicas sharing the stacks; one that restarts with its id gets its stacks back (default: MOOR_REPLICA_ID, else the host name and the --listen port)",
    )
    .action(async (paths: string[], flags: WatchFlags, command: Command) => {
      const { runWatchCommand } = await import('../watch-command.js');
      setExit(await runWatchCommand(io, paths, flags, command));
    });
};
