/**
 * Every relative link of the README and of docs/ points at a file that exists, and a link with
 * an anchor points at a heading of that file (the anchor GitHub derives from the heading), so
 * the documentation can be moved and renamed without leaving dead links behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');

const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

/** The text outside fenced code blocks and inline code, line by line. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

function relativeLinks(page: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(page, 'utf8')).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      links.push({ page, line: i + 1, target });
    }
  });
  return links;
}

function problemOf(link: Link): string | undefined {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? link.page : resolve(dirname(link.page), decodeURIComponent(path));
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  return headingAnchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)) ? undefined : `no heading #${anchor}`;
}

describe('documentation links', () => {
  it('derives anchors as GitHub does', () => {
    const anchors = headingAnchors("# A\n## 4.5 Stock-token lane\n## `/api/me/*`\n## The request's path\n## A\n```\n# not a heading\n```");
    expect([...anchors]).toEqual(['a', '45-stock-token-lane', 'apime', 'the-requests-path', 'a-1']);
  });

  it('finds the pages and their links', () => {
    expect(pages.map((p) => relative(ROOT, p))).toEqual(expect.arrayContaining(['README.md', 'docs/interface.md', 'docs/api.md']));
    expect(pages.flatMap(relativeLinks).length).toBeGreaterThan(100);
  });

  it('keep the interface description numbered as the specification the code cites', () => {
    const numbers = [...readFileSync(join(DOCS, 'interface.md'), 'utf8').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]);
    const expected = [
      '1',
      '2',
      ...Array.from({ length: 12 }, (_, i) => `2.${i + 1}`),
      '3',
      ...Array.from({ length: 4 }, (_, i) => `3.${i + 1}`),
      '4',
      ...Array.from({ length: 9 }, (_, i) => `4.${i + 1}`),
      '5',
      '6',
      '7',
      '8',
      '9',
    ];
    expect(numbers).toEqual(expected);
  });

  it('resolve to an existing file and heading', () => {
    const broken = pages
      .flatMap(relativeLinks)
      .map((link) => ({ link, problem: problemOf(link) }))
      .filter((x) => x.problem !== undefined)
      .map(({ link, problem }) => `${relative(ROOT, link.page)}:${link.line} ${link.target}: ${problem}`);
    expect(broken).toEqual([]);
  });
});
