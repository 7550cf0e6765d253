// The documentation holds together: README stays a page read in minutes, and every link between the
// pages (a file, or a heading inside one) leads somewhere, so moving a section cannot strand a reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Text outside fenced code blocks, where a `](…)` is a link and `# …` a heading. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const PAGES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

describe('the documentation', () => {
  it('README is at most 300 lines and links every guide in docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
    const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(
      guides.filter((name) => !readme.includes(`](docs/${name}`)),
      'guides missing from the Documentation list of README.md',
    ).toEqual([]);
  });

  it('every relative link leads to a file that exists, and to a heading of it when it names one', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(page, 'utf8');
      for (const line of prose(text)) {
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:/i.test(target)) continue;
          const [file, anchor] = target.split('#');
          const path = file === '' ? page : join(dirname(page), file);
          const where = `${relative(ROOT, page)}: ${target}`;
          if (!existsSync(path)) broken.push(`${where} (no such file)`);
          else if (anchor && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
