// moor import ADDR ID: adopt an existing resource into state, so the next plan compares against it.
import type { Command } from 'commander';
import { UserError } from '../../engine/diagnostics.js';
import type { RegisterCommand } from './index.js';
import { withSession } from '../session-options.js';

export const registerImport: RegisterCommand = (program, setExit) => {
  program
    .command('import')
    .description('adopt an existing resource into state under a manifest address')
    .argument('<address>', 'the manifest address, e.g. ContainerGroup/web')
    .argument('<id>', "the service's identifier (ARM id, dataset id, auth context id)")
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .action(async (address: string, id: string, paths: string[], _flags: unknown, command: Command) => {
      setExit(await runImport(address, id, paths, command));
    });
};

async function runImport(address: string, id: string, paths: string[], command: Command): Promise<number> {
  const { loadAndValidate } = await import('../../engine/validate/index.js');
  const { hasErrors } = await import('../../engine/diagnostics.js');
  const { resolveSpec } = await import('../../engine/resolve.js');
  const { kindNamed } = await import('../../resources/registry.js');
  const { kindContext } = await import('../../engine/workflow.js');
  const { StateRecorder } = await import('../../engine/state/recorder.js');
  const { maskSensitive } = await import('../../engine/secrets.js');
  const { projectOnto } = await import('../../engine/diff/project.js');
  const { manifests, diagnostics } = await loadAndValidate(paths.length ? paths : ['.']);
  if (hasErrors(diagnostics)) throw new UserError('the manifests have errors; nothing was imported', diagnostics);
  const manifest = manifests.find((m) => m.address === address);
  if (!manifest) throw new UserError(`no manifest has the address ${address}; write its manifest first, then import it`);
  const kind = kindNamed(manifest.kind)!;
  if (kind.category !== 'resource') throw new UserError(`${address} is a ${kind.category}; only resources can be imported`);
  return withSession(command, async (session) => {
    const lock = await session.backend.lock('moor import');
    try {
      const state = await session.backend.read();
      if (state.resources[address]) throw new UserError(`${address} is already in state (id ${state.resources[address].id ?? 'unknown'}); 'moor state rm ${address}' first to import another`);
      const resolved = resolveSpec(manifest, { cwd: process.cwd(), env: process.env, outputs: (a) => state.resources[a]?.outputs });
      const observed = await kind.resource!.read(kindContext(session), { name: manifest.name, spec: resolved.spec, recordedId: id });
      if (!observed) throw new UserError(`${id} was not found; nothing was imported`);
      const recorder = new StateRecorder(session.backend, state);
      // Live values of the fields the manifest sets stand for "last applied": hidden secrets are
      // unknown, so the next plan sets them; fields the service filled in stay unmanaged.
      await recorder.put(address, {
        kind: manifest.kind,
        name: manifest.name,
        id: observed.id,
        lastApplied: projectOnto(observed.spec, resolved.spec),
        outputs: maskSensitive(observed.outputs, kind.sensitive),
        protect: manifest.protect || undefined,
        updatedAt: new Date().toISOString(),
      });
      await recorder.flush();
      process.stdout.write(`Imported ${address} (${observed.id}). Run 'moor plan' to see how it differs from the manifest.\n`);
      return 0;
    } finally {
      await session.backend.unlock(lock);
    }
  });
}
