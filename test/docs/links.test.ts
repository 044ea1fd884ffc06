/**
 * Docs that work in the clone: every relative link in README.md and docs/**\/*.md (Markdown links
 * and images, reference definitions, HTML href/src) points to a file or folder of the repository,
 * and no page cites a path outside it (`../seeds/`, `../shared/…`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** README.md and every .md under docs/, relative to the root. */
export function docPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(r);
      else if (e.name.endsWith('.md')) pages.push(r);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return pages.sort();
}

/** The link targets of a page (code spans and fenced blocks are not links). */
export function linkTargets(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
    targets.push(m[1]!);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/gm)) targets.push(m[1]!);
  for (const m of text.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(m[1]!);
  return targets;
}

/** A target that leaves the page's site: a URL with a scheme, a mail address, or an in-page anchor. */
const external = (t: string) => /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('#');

/** The broken relative links of `page` (relative to `root`), as `page: target`. */
export function brokenLinks(root: string, page: string): string[] {
  const text = readFileSync(path.join(root, page), 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (external(target)) continue;
    const file = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
    const resolved = file.startsWith('/')
      ? path.join(root, file)
      : path.resolve(path.dirname(path.join(root, page)), file);
    const inside = !path.relative(root, resolved).startsWith('..');
    if (!inside || !existsSync(resolved)) broken.push(`${page}: ${target}`);
    else if (!file && !statSync(resolved).isFile()) broken.push(`${page}: ${target}`);
  }
  return broken;
}

describe('documentation links', () => {
  const pages = docPages(ROOT);

  it('finds the pages and their links', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/DESIGN.md');
    expect(
      linkTargets(
        'see [a](formats/a.md#x), ![i](img.png "t"), `[no](code.md)`, <a href="b.html">b</a>\n[r]: ../c.md',
      ),
    ).toEqual(['formats/a.md#x', 'img.png', '../c.md', 'b.html']);
  });

  it('every relative link in README.md and docs/ resolves inside the repository', () => {
    const broken = pages.flatMap((p) => brokenLinks(ROOT, p));
    expect(broken).toEqual([]);
  });

  it('no page points at folders outside the repository (seeds, shared data)', () => {
    const outside = pages.flatMap((p) => {
      const text = readFileSync(path.join(ROOT, p), 'utf8');
      return [...text.matchAll(/\.\.\/(?:\.\.\/)*(?:seeds|shared|data\/vectors)\//g)].map(
        (m) => `${p}: ${m[0]}`,
      );
    });
    expect(outside).toEqual([]);
  });
});
