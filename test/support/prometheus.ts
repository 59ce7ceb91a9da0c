// Reads the Prometheus text exposition format (0.0.4) strictly, so the tests check the format as well as the numbers.
import { strict as assert } from 'node:assert';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    assert.ok(match && match.index === start, `malformed labels in: ${line}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
  }
  return labels;
}

/** Every sample of an exposition; fails on any line that is not a sample, a HELP, a TYPE or blank, and on a sample without a TYPE. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      assert.ok(name && type && TYPES.has(type), `malformed TYPE line: ${line}`);
      typed.set(name, type);
      continue;
    }
    assert.ok(!line.startsWith('#'), `unexpected comment: ${line}`);
    const match = SAMPLE_LINE.exec(line);
    assert.ok(match, `malformed sample line: ${line}`);
    const name = match[1]!;
    const family = [name, name.replace(/_(bucket|sum|count)$/, '')].find((candidate) => typed.has(candidate));
    assert.ok(family, `sample ${name} has no TYPE line`);
    const value = match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : Number(match[3]);
    // Values are what Go's ParseFloat reads, which takes NaN in any case; prom-client writes "Nan" (an event loop
    // lag mean with no sample since the last scrape).
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(match[3]!), `malformed value in: ${line}`);
    samples.push({ name, labels: parseLabels(match[2] ?? '', line), value });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (others ignored); 0 when it is absent (a counter not yet moved). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  assert.ok(found.length <= 1, `${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
