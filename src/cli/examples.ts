// The Examples section of each command's help: what people type most, ready to copy.
import type { Command } from 'commander';

const EXAMPLES: Readonly<Partial<Record<string, readonly string[]>>> = {
  '': ['moor validate manifests/', 'moor plan manifests/', 'moor apply manifests/', 'moor help plan'],
  validate: ['moor validate manifests/', 'moor validate app.yaml db.yaml --output json'],
  schema: ['moor schema > moor.schema.json', 'moor schema ContainerGroup'],
  graph: ['moor graph manifests/', 'moor graph manifests/ --format dot | dot -Tsvg > graph.svg'],
  plan: [
    'moor plan manifests/',
    'moor plan manifests/ --detailed-exitcode        # exit 2 when there are changes',
    'moor plan manifests/ --out plan.json --output markdown > plan.md',
    'moor plan manifests/ --target ContainerGroup/web',
    'moor plan manifests/ --output github            # annotations and the job summary in GitHub Actions',
  ],
  apply: [
    'moor apply manifests/',
    'moor apply manifests/ --auto-approve --parallelism 4',
    'moor apply --plan plan.json',
    'moor apply manifests/ --prune',
    'moor apply manifests/ --auto-approve --output jsonl | jq -c .',
    'moor apply manifests/ --auto-approve --output github   # annotations and the job summary in GitHub Actions',
  ],
  drift: [
    'moor drift manifests/',
    'moor drift manifests/ --output markdown >> "$GITHUB_STEP_SUMMARY"',
    'moor drift manifests/ --notify',
    'moor drift --stack prod --accept --dry-run   # the diff that would write the hand changes into the manifests',
  ],
  import: ['moor import ContainerGroup/web /subscriptions/SUB/resourceGroups/rg-web/providers/Vendor.ContainerInstance/containerGroups/web manifests/'],
  show: ['moor show plan.json', 'moor show plan.json --output markdown > plan.md'],
  state: [
    'moor state list',
    'moor state list --output json',
    'moor state show ContainerGroup/web',
    'moor state mv ContainerGroup/web ContainerGroup/frontend',
    'moor state migrate --to postgres://moor@db.example.net/moor',
    'moor state resolve DatabaseExport/nightly --succeeded',
    'moor state unlock',
  ],
  outputs: [
    'moor outputs ContainerGroup/web',
    'moor outputs ContainerGroup/web --output json',
    'IP=$(moor outputs ContainerGroup/web /properties/ipAddress/ip)   # one value, raw',
  ],
  history: ['moor history', 'moor history ContainerGroup/web', "moor history --output json | jq '.runs[0]'"],
  watch: [
    'moor watch manifests/ --interval 5m --listen 127.0.0.1:9464',
    'moor watch manifests/ --self-heal --interval 2m',
    'moor watch --all-stacks --self-heal --listen 0.0.0.0:9464 --listen-token "$WATCH_TOKEN"',
  ],
  get: [
    'moor get usage --subscription 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11 --location westeurope',
    'moor get transactions --billing-account 12345678 --invoice G012345678 --output csv',
  ],
  notify: ['moor notify test'],
  'local-cloud': ['moor local-cloud --port 4010', 'moor local-cloud --port 0 --latency 50 --fail-rate 0.1'],
  version: ['moor version'],
  // Subcommands of state: `moor state list --help`, `moor state mv --help`.
  'state list': ['moor state list', 'moor state list --state postgres://moor@db.example.net/moor', "moor state list --output json | jq -r '.[].address'"],
  'state mv': [
    'moor state mv ContainerGroup/api ContainerGroup/backend   # after renaming metadata.name in the manifest',
    'moor state mv DatabaseRefresh/uat DatabaseRefresh/uat-from-prod',
  ],
  completion: ['moor completion bash > /etc/bash_completion.d/moor', 'source <(moor completion zsh)'],
};

/** The examples of a command by its path under the program (`plan`, `state mv`; `''`: the program's). */
export function examplesOf(path: string): readonly string[] {
  return EXAMPLES[path] ?? [];
}

/** Adds an Examples section after the help of the program and of every command that has one. */
export function addExamples(program: Command): void {
  const add = (command: Command, key: string) => {
    const lines = EXAMPLES[key];
    if (lines) command.addHelpText('after', '\nExamples:\n' + lines.map((l) => `  $ ${l}`).join('\n'));
  };
  add(program, '');
  for (const command of program.commands) {
    add(command, command.name());
    for (const sub of command.commands) add(sub, `${command.name()} ${sub.name()}`);
  }
}
