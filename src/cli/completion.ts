// `moor completion bash|zsh`: a completion script made from the commands and options themselves,
// so it never falls behind them. zsh runs the bash script through bashcompinit.
import type { Command } from 'commander';

/** Every command path ('' for moor itself, 'plan', 'state list') with the words that may follow it. */
export function completionWords(program: Command): Map<string, string[]> {
  const words = new Map<string, string[]>();
  const walk = (command: Command, path: string) => {
    const subs = command.commands.map((c) => c.name()).filter((n) => n !== 'help');
    const options = command.options.flatMap((o) => [o.long, o.short]).filter((o): o is string => Boolean(o));
    words.set(path, [...subs, ...options, '--help']);
    for (const sub of command.commands) if (sub.name() !== 'help') walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return words;
}

export function bashCompletion(program: Command): string {
  const words = completionWords(program);
  const cases = [...words].map(([path, list]) => `    "${path}") echo "${list.join(' ')}" ;;`);
  return `# moor completion for bash: source <(moor completion bash)
_moor_words() {
  case "$1" in
${cases.join('\n')}
  esac
}
_moor_commands="|${[...words.keys()].filter(Boolean).join('|')}|"
_moor() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i next
  COMPREPLY=()
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${path:+$path }$w"
    [[ "$_moor_commands" == *"|$next|"* ]] && path="$next"
  done
  if [[ "$cur" == -* || -z "$path" || "$(_moor_words "$path")" != -* ]]; then
    COMPREPLY=( $(compgen -W "$(_moor_words "$path")" -- "$cur") )
  fi
  [[ \${#COMPREPLY[@]} -eq 0 ]] && COMPREPLY=( $(compgen -f -- "$cur") )
  return 0
}
complete -F _moor moor
`;
}

export function zshCompletion(program: Command): string {
  return `# moor completion for zsh: source <(moor completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program).split('\n').slice(1).join('\n')}`;
}
