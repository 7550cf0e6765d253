// moor graph: prints the dependency graph of the manifests as Mermaid or Graphviz DOT.
import { Option, type Command } from 'commander';
import type { DependencyGraph } from '../../engine/graph.js';
import { runConfig } from '../session-options.js';
import type { RegisterCommand } from './register-command.js';

interface GraphFlags {
  format: 'mermaid' | 'dot';
}

export const registerGraph: RegisterCommand = (program, io, setExit) => {
  program
    .command('graph')
    .description('print the dependency graph (an arrow goes from what is applied first to what needs it)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(new Option('--format <format>', 'mermaid or dot').choices(['mermaid', 'dot']).default('mermaid'))
    .action(async (paths: string[], flags: GraphFlags, command: Command) => {
      const { loadRunManifests } = await import('../../engine/run-manifests.js');
      const { CATALOG } = await import('../catalog.js');
      const { buildGraph } = await import('../../engine/graph.js');
      const { formatDiagnostic, hasErrors } = await import('../../core/diagnostics.js');
      const config = await runConfig(io, command);
      const result = await loadRunManifests(config, paths, CATALOG, io.cwd);
      for (const d of result.diagnostics) io.stderr.write(formatDiagnostic(d) + '\n');
      const graph = buildGraph(result.manifests);
      io.stdout.write(flags.format === 'dot' ? renderDot(graph) : renderMermaid(graph));
      setExit(hasErrors(result.diagnostics) ? 1 : 0);
    });
};

/** Mermaid flowchart; node ids are indexes because addresses hold characters Mermaid reserves. */
export function renderMermaid(graph: DependencyGraph): string {
  const id = new Map(graph.nodes.map((n, i) => [n, `n${i}`]));
  const lines = ['flowchart LR'];
  for (const n of graph.nodes) lines.push(`  ${id.get(n)}["${n.replace(/"/g, '#quot;')}"]`);
  for (const n of graph.nodes) {
    for (const dep of graph.dependenciesOf(n)) lines.push(`  ${id.get(dep)} --> ${id.get(n)}`);
  }
  return lines.join('\n') + '\n';
}

export function renderDot(graph: DependencyGraph): string {
  const q = (s: string) => JSON.stringify(s);
  const lines = ['digraph moor {', '  rankdir=LR;', '  node [shape=box];'];
  for (const n of graph.nodes) lines.push(`  ${q(n)};`);
  for (const n of graph.nodes) {
    for (const dep of graph.dependenciesOf(n)) lines.push(`  ${q(dep)} -> ${q(n)};`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
