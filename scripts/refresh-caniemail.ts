// Refreshes the vendored caniemail data (src/mime/vendor/caniemail.json) that the HTML check reads, and records where it
// came from and its last_update_date. `npm run refresh:caniemail` takes the newest `caniemail` npm package's copy of the
// caniemail.com API document; `-- --package caniemail@X.Y.Z`, `-- --url https://www.caniemail.com/api/data.json` or
// `-- --file data.json` take another source. Review the diff (one line per feature) before committing it.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../src/project-root.js';

const run = promisify(execFile);

export const CANIEMAIL_FILE = path.join(PROJECT_ROOT, 'src', 'mime', 'vendor', 'caniemail.json');
/** Where the npm package keeps its copy of the API document. */
const PACKAGE_DATA_PATH = 'package/data/caniemail.json';

interface Source {
  /** `caniemail@2.0.2`, a URL or a file path, as given. */
  from: string;
  text: string;
  /** The npm package version the data came from, when it came from one. */
  packageVersion: string | null;
}

async function fromPackage(spec: string): Promise<Source> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'caniemail-'));
  try {
    const { stdout } = await run('npm', ['pack', spec, '--json', '--pack-destination', folder], { maxBuffer: 16 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { filename: string; version: string }[];
    if (!packed) throw new Error(`npm pack ${spec} packed nothing`);
    await run('tar', ['-xzf', path.join(folder, path.basename(packed.filename)), '-C', folder, PACKAGE_DATA_PATH]);
    return { from: `caniemail@${packed.version}`, text: fs.readFileSync(path.join(folder, PACKAGE_DATA_PATH), 'utf8'), packageVersion: packed.version };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function fromUrl(url: string): Promise<Source> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return { from: url, text: await response.text(), packageVersion: null };
}

/**
 * The API document with each platform's `{version: support}` object turned into `[version, support]` pairs in the order
 * caniemail lists them: that order says which test is the newest, and JavaScript objects lose it (integer-like keys
 * such as "12" are put before "11.4"). YAML's parser reads JSON into Maps, which keep it.
 */
function ordered(text: string): Record<string, unknown> {
  const document = YAML.parse(text, { mapAsMap: true }) as Map<string, unknown>;
  const data = document.get('data');
  if (!Array.isArray(data) || data.length === 0) throw new Error('the document has no data array');
  const features = data.map((feature: Map<string, unknown>) => {
    const slug = feature.get('slug');
    const stats = feature.get('stats');
    if (typeof slug !== 'string' || !(stats instanceof Map)) throw new Error(`a feature without slug or stats: ${String(slug)}`);
    const pairs = new Map([...stats].map(([family, platforms]: [string, Map<string, Map<string, string>>]) => [
      family,
      new Map([...platforms].map(([platform, versions]) => [platform, [...versions].map(([version, support]) => [String(version), String(support)])])),
    ]));
    return toPlain(new Map([...feature].map(([key, value]) => [key, key === 'stats' ? pairs : value])));
  });
  const lastUpdate = document.get('last_update_date');
  if (typeof lastUpdate !== 'string') throw new Error('the document has no last_update_date');
  return { api_version: document.get('api_version'), last_update_date: lastUpdate, nicenames: toPlain(document.get('nicenames')), data: features };
}

function toPlain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, inner]) => [String(key), toPlain(inner)]));
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}

/** One feature per line, so a refresh's diff shows which features changed. */
function render(source: Source, document: Record<string, unknown>): string {
  const { data, ...head } = document as { data: unknown[] };
  const header = {
    vendored_from: source.from,
    ...(source.packageVersion === null ? {} : { package_version: source.packageVersion }),
    retrieved: new Date().toISOString().slice(0, 10),
    ...head,
  };
  const headLines = Object.entries(header).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)},`);
  return `{\n${headLines.join('\n')}\n"data":[\n${data.map((feature) => JSON.stringify(feature)).join(',\n')}\n]}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { package: { type: 'string' }, url: { type: 'string' }, file: { type: 'string' } } });
  const source = values.url !== undefined
    ? await fromUrl(values.url)
    : values.file !== undefined
      ? { from: path.basename(values.file), text: fs.readFileSync(values.file, 'utf8'), packageVersion: null }
      : await fromPackage(values.package ?? 'caniemail@latest');
  const document = ordered(source.text);
  fs.writeFileSync(CANIEMAIL_FILE, render(source, document));
  console.log(JSON.stringify({ file: path.relative(PROJECT_ROOT, CANIEMAIL_FILE), from: source.from, last_update_date: document.last_update_date, features: (document.data as unknown[]).length }));
}

await main();
