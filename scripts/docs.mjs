// npm run docs: writes the command reference, docs/commands/, from the built CLI's definitions
// (src/cli/command-docs.ts) and removes pages of commands that are gone. Run after changing a
// command's options or help; test/docs/command-pages.test.ts fails until the pages match.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'docs', 'commands');
const { commandPages } = await import(join(root, 'dist', 'cli', 'command-docs.js'));
const pages = commandPages();
mkdirSync(dir, { recursive: true });
let changed = 0;
for (const name of readdirSync(dir)) {
  if (name.endsWith('.md') && !pages.has(name)) {
    rmSync(join(dir, name));
    changed++;
    process.stdout.write(`removed docs/commands/${name}\n`);
  }
}
for (const [name, text] of pages) {
  const path = join(dir, name);
  let old;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) continue;
  writeFileSync(path, text);
  changed++;
  process.stdout.write(`wrote docs/commands/${name}\n`);
}
process.stdout.write(`docs/commands: ${pages.size} pages, ${changed} changed\n`);
