// The dashboard's page and its assets: the page's own modules (assets/dashboard/ of the package) and
// Preact and htm as ES modules from the package's dependencies. Nothing comes from another host.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface StaticFile {
  readonly type: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** The page's own files, beside src/ and dist/ at the package's root (both are two folders below it). */
const CLIENT_DIR = new URL('../../../assets/dashboard/', import.meta.url);

/** Bare module names the page imports, and the URL each is served at. */
const VENDOR: Readonly<Record<string, { readonly specifier: string; readonly url: string }>> = {
  'preact.js': { specifier: 'preact', url: '/assets/vendor/preact.js' },
  'preact-hooks.js': { specifier: 'preact/hooks', url: '/assets/vendor/preact-hooks.js' },
  'htm.js': { specifier: 'htm', url: '/assets/vendor/htm.js' },
};

const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
const CLIENT_FILE = /^\/assets\/([a-z0-9-]+\.(js|css|svg))$/;
const VENDOR_FILE = /^\/assets\/vendor\/([a-z0-9-]+\.js)$/;

export class StaticAssets {
  private readonly cache = new Map<string, StaticFile>();

  /** The file served at `path`, or undefined when it is none of the page's. */
  async file(path: string): Promise<StaticFile | undefined> {
    const cached = this.cache.get(path);
    if (cached) return cached;
    const made = await this.read(path);
    if (made) this.cache.set(path, made);
    return made;
  }

  private async read(path: string): Promise<StaticFile | undefined> {
    if (path === '/' || path === '/index.html') return page();
    const vendor = vendorModule(VENDOR_FILE.exec(path)?.[1]);
    if (vendor) return asset('js', await readFile(fileURLToPath(import.meta.resolve(vendor.specifier))));
    const client = CLIENT_FILE.exec(path);
    if (!client) return undefined;
    try {
      return asset(client[2], await readFile(new URL(client[1], CLIENT_DIR)));
    } catch {
      return undefined;
    }
  }
}

/** The module the page imports as this vendor file, if it imports one by that name. */
function vendorModule(file: string | undefined): (typeof VENDOR)[string] | undefined {
  return file !== undefined && Object.hasOwn(VENDOR, file) ? VENDOR[file] : undefined;
}

function asset(ext: string, body: Buffer): StaticFile {
  return { type: TYPES[ext], body, headers: { 'x-content-type-options': 'nosniff' } };
}

async function page(): Promise<StaticFile> {
  const importMap = JSON.stringify({ imports: Object.fromEntries(Object.values(VENDOR).map((v) => [v.specifier, v.url])) });
  const html = (await readFile(new URL('index.html', CLIENT_DIR), 'utf8')).replace('<!-- import map -->', `<script type="importmap">${importMap}</script>`);
  const hash = createHash('sha256').update(importMap).digest('base64');
  return {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(html),
    headers: {
      // Only the page's own files run; the one inline script is the import map, allowed by its hash.
      'content-security-policy': `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}
