// The README and docs/ link to each other, to the project's files and to headings: a page moved or a heading
// renamed breaks a reader's path silently, so every relative link is checked to resolve, anchors included.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { PROJECT_ROOT } from '../../src/project-root.js';

const markdown = new MarkdownIt();

const pages = (): string[] => [
  path.join(PROJECT_ROOT, 'README.md'),
  ...fs.readdirSync(path.join(PROJECT_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => path.join(PROJECT_ROOT, 'docs', name)),
];

/** The anchors GitHub gives a page's headings (the same slugs, duplicates numbered). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = markdown.parse(fs.readFileSync(file, 'utf8'), {});
  return new Set(tokens.flatMap((token, index) => (token.type === 'heading_open' ? [slugger.slug(tokens[index + 1]!.content)] : [])));
}

/** Every link target of a page, as written. */
function linksOf(file: string): string[] {
  const targets: string[] = [];
  const walk = (tokens: ReturnType<typeof markdown.parse>) => {
    for (const token of tokens) {
      if (token.type === 'link_open') targets.push(String(token.attrGet('href') ?? ''));
      if (token.children) walk(token.children);
    }
  };
  walk(markdown.parse(fs.readFileSync(file, 'utf8'), {}));
  return targets;
}

describe('documentation links', () => {
  it('has a README of at most about 250 lines that links into docs/', () => {
    const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length <= 260, `the README has ${readme.split('\n').length} lines`);
    const linked = new Set(linksOf(path.join(PROJECT_ROOT, 'README.md')).map((target) => target.split('#')[0]));
    for (const page of pages().slice(1)) {
      assert.ok(linked.has(path.relative(PROJECT_ROOT, page)), `the README links to ${path.relative(PROJECT_ROOT, page)}`);
    }
  });

  for (const page of pages()) {
    const name = path.relative(PROJECT_ROOT, page);
    it(`resolves every relative link of ${name}, to a file that exists and a heading it has`, () => {
      const broken: string[] = [];
      for (const target of linksOf(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? page : path.resolve(path.dirname(page), decodeURIComponent(file));
        if (!fs.existsSync(resolved)) broken.push(`${target}: no file ${path.relative(PROJECT_ROOT, resolved)}`);
        else if (anchor !== undefined && !(resolved.endsWith('.md') && anchorsOf(resolved).has(anchor))) broken.push(`${target}: no heading #${anchor}`);
      }
      assert.deepEqual(broken, [], `${name} has broken links`);
    });
  }
});
