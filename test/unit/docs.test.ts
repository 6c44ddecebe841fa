import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/run-cli.js';
import { storedScreenshotSource } from '../helpers/report-sections.js';

/**
 * The documentation speaks to the people who run ragwatch: it never cites the internal product briefs or
 * design notes, nor files outside the repository, and every relative link it makes resolves.
 */

/** Every user-facing text: the README, docs/, the module READMEs, and the commented config and deploy files. */
function userFacingFiles(): string[] {
  const out: string[] = ['README.md'];
  const walk = (dir: string, keep: (name: string) => boolean) => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path, keep);
      else if (keep(entry.name)) out.push(path);
    }
  };
  walk('docs', (n) => n.endsWith('.md'));
  walk('src', (n) => n === 'README.md');
  walk('bench', (n) => n.endsWith('.md'));
  walk('config', () => true);
  walk('deploy', (n) => !n.endsWith('.json'));
  return out.sort();
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\.\.\/shared\b|\/work\/shared|\bshared\/(design|seeds|langfuse-api)/i, 'a file outside the repository'],
  [/\bproduct briefs?\b|\bthe briefs?\b/i, 'the product brief'],
  [/\b(the|first|second|third|fourth|fifth)\s+seeds?['’]s?(?=\s)/i, 'a product brief (seed)'],
  [/\bseeds?\s+(recommends?|says?|describes?|asks?|requires?)\b/i, 'a product brief (seed)'],
  [/\bdesign notes\b/i, 'the internal design notes'],
];

function briefReferences(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [re, what] of FORBIDDEN) {
      const m = re.exec(line);
      if (m) found.push(`line ${i + 1}: "${m[0]}" cites ${what}`);
    }
  });
  return found;
}

describe('user-facing docs', () => {
  const files = userFacingFiles();

  it('cover the README, every doc and the commented config', () => {
    for (const f of [
      'README.md',
      'docs/architecture.md',
      'docs/operations.md',
      'docs/judge-protocol.md',
      'config/ragwatch.example.yaml',
    ])
      expect(files).toContain(f);
  });

  it.each(files)('%s cites no product brief, design note or file outside the repository', (file) => {
    expect(briefReferences(readFileSync(join(REPO_ROOT, file), 'utf8'))).toEqual([]);
  });

  it('the check finds what it looks for', () => {
    const planted = [
      "The project's twin of the design notes (`../shared/design.md`).",
      "for 10 minutes (the first seed's rule)",
      'The examples use the seeds’ Redis worked example.',
      'Share of traces scored (the seed recommends 5-10 %).',
      'the alert the brief describes',
    ];
    for (const line of planted) expect(briefReferences(line), line).not.toEqual([]);
    for (const line of [
      '--seed <seed>',
      'Bootstrap resamples and their seed.',
      'seed 42',
      'same seed, same traces',
      'judge.seed: 42',
    ]) {
      expect(briefReferences(line), line).toEqual([]);
    }
  });

  it.each(files.filter((f) => f.endsWith('.md')))('%s links only to files that exist inside the repository', (file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const path = resolve(REPO_ROOT, dirname(file), target);
      expect(relative(REPO_ROOT, path).startsWith('..'), `${target} leaves the repository`).toBe(false);
      expect(existsSync(path), `${file} links to ${target}`).toBe(true);
    }
  });

  it('the README shows the report screenshot, made from the demo report its sections name', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/\]\(docs\/report-screenshot\.png\)/);
    expect(statSync(join(REPO_ROOT, 'docs', 'report-screenshot.png')).size).toBeGreaterThan(10_000);
    const source = storedScreenshotSource();
    expect(source.report).toMatch(/npm run demo/);
    expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The alt text names what the picture shows.
    const alt = /\[!\[([^\]]*)\]\(docs\/report-screenshot\.png\)/.exec(readme)![1]!.toLowerCase();
    for (const section of [
      'verdict',
      'the judge',
      'failures',
      'noise sensitivity',
      'trend',
      'judge agreement with people',
    ])
      expect(
        source.sections.map((s) => s.toLowerCase()),
        section,
      ).toContain(section);
    for (const word of ['verdict', 'judge', 'failures', 'noise', 'trend', 'agreement'])
      expect(alt, word).toContain(word);
  });
});
