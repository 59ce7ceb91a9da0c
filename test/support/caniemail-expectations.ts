// What caniemail says of a feature, worked out by the tests from the vendored data file on their own (each client's
// last test, its letter and note numbers), to compare with what the HTML check reports.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/project-root.js';

export interface RawFeature {
  slug: string;
  title: string;
  stats: Record<string, Record<string, [string, string][]>>;
  notes_by_num: Record<string, string> | null;
}

export const CANIEMAIL = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'src/mime/vendor/caniemail.json'), 'utf8')) as {
  last_update_date: string;
  nicenames: { family: Record<string, string>; platform: Record<string, string> };
  data: RawFeature[];
};

export const RAW_FEATURES = new Map(CANIEMAIL.data.map((feature) => [feature.slug, feature]));

const WORDS: Record<string, string> = { y: 'yes', n: 'no', a: 'partial', u: 'unknown' };

export function expectedSupport(slug: string) {
  const feature = RAW_FEATURES.get(slug);
  assert.ok(feature, `caniemail has no feature ${slug}`);
  const results = Object.entries(feature.stats).flatMap(([family, platforms]) => Object.entries(platforms).map(([platform, tests]) => {
    const [version, value] = tests[tests.length - 1]!;
    const [letter, ...notes] = value.split(' ');
    return {
      Name: `${CANIEMAIL.nicenames.family[family]} ${CANIEMAIL.nicenames.platform[platform]} (${version})`,
      Family: family, Platform: platform, Version: version, Support: WORDS[letter!]!, NoteNumbers: notes.map((note) => note.replace('#', '')),
    };
  }));
  const share = (word: string) => Math.round((results.filter((result) => result.Support === word).length / results.length) * 10_000) / 100;
  return {
    title: feature.title,
    results: results.sort((a, b) => (a.Family === b.Family ? (a.Platform < b.Platform ? -1 : 1) : a.Family < b.Family ? -1 : 1)),
    score: { Supported: share('yes'), Partial: share('partial'), Unsupported: share('no'), Unknown: share('unknown') },
    notes: feature.notes_by_num ?? {},
  };
}

/** The parts of a reported warning that caniemail decides. */
interface ReportedWarning {
  Slug: string;
  Title: string;
  Source: string;
  Results: unknown[];
  NotesByNumber: Record<string, string>;
  Score: { Found: number; Supported: number; Partial: number; Unsupported: number; Unknown: number };
}

/** The warning for `slug` is there, found `times` times, and says what the data says of it. */
export function assertCaniemailWarning(warnings: ReportedWarning[], slug: string, times: number): void {
  const entry = warnings.find((candidate) => candidate.Slug === slug);
  assert.ok(entry, `${slug} not found; found: ${warnings.map((warning) => `${warning.Slug} x${warning.Score.Found}`).join(', ')}`);
  const expected = expectedSupport(slug);
  assert.equal(entry.Score.Found, times, `${slug}: found`);
  assert.equal(entry.Source, 'caniemail');
  assert.equal(entry.Title, expected.title);
  assert.deepEqual(entry.Results, expected.results, `${slug}: results per client`);
  const { Supported, Partial, Unsupported, Unknown } = entry.Score;
  assert.deepEqual({ Supported, Partial, Unsupported, Unknown }, expected.score, `${slug}: score`);
  assert.deepEqual(entry.NotesByNumber, expected.notes, `${slug}: notes`);
}
