import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments cite the contract by path and section (docs/contract/README.md): every citation must
// name a file and a heading that exist, and none may cite the document outside the repository
// that the contract was first written in.

const ROOT = join(import.meta.dirname, '../../..');
const CONTRACT = join(ROOT, 'docs/contract');
const SCANNED = ['src', 'test', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;

const OUTSIDE_SPEC = /SPEC(\.md| §)/;
const CITATION = /docs\/contract\/([A-Za-z0-9_.-]+\.md)(?:#([A-Za-z0-9_-]+))?/g;
const LINK = /\]\(([A-Za-z0-9_.-]+\.md)?(?:#([A-Za-z0-9_-]+))?\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** A heading's anchor as GitHub makes it: the rendered text, lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*\*|__|\*/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file: its headings' slugs, repeats numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const contractFiles = new Map(
  readdirSync(CONTRACT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => [name, anchorsOf(readFileSync(join(CONTRACT, name), 'utf8'))]),
);

function citationProblem(file: string, anchor: string | undefined): string | null {
  const anchors = contractFiles.get(file);
  if (!anchors) return `docs/contract/${file} does not exist`;
  if (anchor !== undefined && !anchors.has(anchor)) return `docs/contract/${file} has no heading #${anchor}`;
  return null;
}

describe('citations of the contract', () => {
  it('GitHub slugs: punctuation dropped, case folded, spaces as hyphens, repeats numbered', () => {
    expect(githubSlug('Host and Origin')).toBe('host-and-origin');
    expect(githubSlug('Preview and re-evaluation')).toBe('preview-and-re-evaluation');
    expect(githubSlug('`GET /v1/events`, live')).toBe('get-v1events-live');
    expect([...anchorsOf('# A\n## Basics\n```\n# not a heading\n```\n## Basics\n')]).toEqual([
      'a',
      'basics',
      'basics-1',
    ]);
  });

  it('every file in src, test, bench and scripts cites the contract by an existing file and heading, never SPEC', () => {
    const problems: string[] = [];
    for (const dir of SCANNED) {
      for (const path of sourceFiles(join(ROOT, dir))) {
        const name = relative(ROOT, path);
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            const at = `${name}:${index + 1}`;
            if (OUTSIDE_SPEC.test(line)) problems.push(`${at}: cites SPEC; cite docs/contract/<file>.md#<section>`);
            for (const [, file, anchor] of line.matchAll(CITATION)) {
              const problem = citationProblem(file!, anchor);
              if (problem) problems.push(`${at}: ${problem}`);
            }
          });
      }
    }
    expect(problems).toEqual([]);
  });

  it('has the sections code is told to cite', () => {
    const sections = [
      'api.md#basics',
      'api.md#times-and-ranges',
      'api.md#organizations',
      'api.md#teams',
      'api.md#scans',
      'api.md#scan-list',
      'api.md#violations',
      'api.md#aggregates',
      'api.md#evidence',
      'api.md#running',
      'api.md#users-and-tokens',
      'api.md#live-updates',
      'auth.md#tokens',
      'auth.md#sessions',
      'auth.md#roles',
      'auth.md#visibility',
      'auth.md#host-and-origin',
      'auth.md#server-identity',
      'errors.md#shape',
      'errors.md#codes',
      'policies.md#rules',
      'policies.md#policy-document',
      'policies.md#preview-and-re-evaluation',
      'package-format.md#layout',
      'package-format.md#manifest',
      'package-format.md#upstream-packages',
      'package-format.md#import',
      'package-format.md#imported-ids',
      'package-format.md#checks',
      'package-format.md#export',
      'limits.md#requests',
      'limits.md#packages',
      'limits.md#timelines',
      'limits.md#concurrency-and-time',
    ];
    const missing = sections.filter((section) => {
      const [file, anchor] = section.split('#') as [string, string];
      return citationProblem(file, anchor) !== null;
    });
    expect(missing).toEqual([]);
  });

  it("the contract's own links between its files name existing files and headings", () => {
    const problems: string[] = [];
    for (const name of contractFiles.keys()) {
      for (const [, file, anchor] of readFileSync(join(CONTRACT, name), 'utf8').matchAll(LINK)) {
        const problem = citationProblem(file ?? name, anchor);
        if (problem) problems.push(`docs/contract/${name}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
