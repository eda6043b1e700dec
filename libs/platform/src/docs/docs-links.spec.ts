import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// README.md and docs/*.md link only to what a fresh clone has (issue 20, item 6): every relative link
// names a file or folder inside the repository, an anchor names a heading of its file, and there is
// no link to another site (the running local stack at localhost is allowed: npm start serves it).

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const DOCS = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The link targets of a markdown text, outside code blocks and code spans: [text](target) and <scheme://…>. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) targets.push(m[1]!);
  for (const m of prose.matchAll(/<([a-z][a-z0-9+.-]*:\/\/[^>\s]+)>/gi)) targets.push(m[1]!);
  return targets;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** What is wrong with one link of `file` (a path relative to the repository), or undefined. */
function linkProblem(file: string, target: string, repoRoot = REPO_ROOT): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/i.test(target)) return undefined;
    return `${target} leaves the repository`;
  }
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const filePath = decodeURIComponent(rawPath);
  if (filePath.startsWith('/')) return `${target} is an absolute path`;
  const resolved = filePath === '' ? path.join(repoRoot, file) : path.resolve(repoRoot, path.dirname(file), filePath);
  const relative = path.relative(repoRoot, resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return `${target} points outside the repository`;
  if (!existsSync(resolved)) return `${target} does not exist`;
  if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase())) {
    return `${target}: no heading #${anchor} in ${relative}`;
  }
  return undefined;
}

describe('links in README.md and docs/*.md', () => {
  it('resolve inside the repository', () => {
    const problems: string[] = [];
    for (const file of DOCS) {
      for (const target of linkTargets(readFileSync(path.join(REPO_ROOT, file), 'utf8'))) {
        const problem = linkProblem(file, target);
        if (problem) problems.push(`${file}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the check itself finds a missing file, a path out of the repository, a missing anchor and another site', () => {
    expect(linkTargets('See [a](docs/decisions.md), [b](../x.md "t"), <https://example.com/p> and `[c](nope.md)`.\n```\n[d](nope.md)\n```\n')).toEqual([
      'docs/decisions.md',
      '../x.md',
      'https://example.com/p',
    ]);
    expect(linkProblem('README.md', 'docs/decisions.md')).toBeUndefined();
    expect(linkProblem('docs/decisions.md', '../README.md')).toBeUndefined();
    expect(linkProblem('README.md', 'http://localhost:8080/dashboard')).toBeUndefined();
    expect(linkProblem('README.md', 'docs/no-such-file.md')).toMatch(/does not exist/);
    expect(linkProblem('README.md', '../shared/spec/service-interface.md')).toMatch(/outside the repository/);
    expect(linkProblem('README.md', '/etc/passwd')).toMatch(/absolute/);
    expect(linkProblem('README.md', 'https://example.com')).toMatch(/leaves the repository/);
    expect(linkProblem('README.md', 'README.md#no-such-heading')).toMatch(/no heading/);
    expect(linkProblem('README.md', '#quick-start')).toBeUndefined();
    expect(headingAnchors('# Orquestra\n## Efí (the first provider)\n## Tests\n## Tests\n')).toEqual(new Set(['orquestra', 'efí-the-first-provider', 'tests', 'tests-1']));
  });
});
