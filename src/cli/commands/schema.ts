// moor schema: prints the JSON Schema of manifests (all kinds, or one) for editors and the YAML language server.
import type { RegisterCommand } from './register-command.js';

export const registerSchema: RegisterCommand = (program, io, setExit) => {
  program
    .command('schema')
    .description('print the JSON Schema of manifests, e.g. for # yaml-language-server: $schema=moor.schema.json')
    .argument('[kind]', 'only this kind (ContainerGroup, AuthContext, PushDataset, DatabaseRefresh, DatabaseExport, Check, Policy)')
    .action(async (kindName: string | undefined) => {
      const { CATALOG } = await import('../catalog.js');
      const { documentSchema } = await import('../../engine/validate/document-schema.js');
      const { UserError } = await import('../../core/diagnostics.js');
      const every = [...CATALOG.kinds, ...CATALOG.documents];
      let only;
      if (kindName !== undefined) {
        only = every.find((k) => k.kind === kindName) ?? every.find((k) => k.kind.toLowerCase() === kindName.toLowerCase());
        if (!only) throw new UserError(`unknown kind ${kindName}: expected one of ${every.map((k) => k.kind).join(', ')}`);
      }
      io.stdout.write(JSON.stringify(documentSchema(CATALOG, only), null, 2) + '\n');
      setExit(0);
    });
};
