// Measures the CPU time a capture's analysis (parseEmail, the work a content worker does per message) costs per message,
// whole and step by step, on one thread, for each message shape: the two SMTP bench messages (smtp-load.ts), the .eml
// fixtures, and a large newsletter; run `npm run --silent bench:parse -- [--rounds 2000] [--postal-mime PATH]`.
// CPU time (process.cpuUsage) rather than wall time, after a warm-up, so the figures hold on a busy machine.
// --postal-mime PATH (the folder of an installed postal-mime; it is not a dependency) adds its parse beside
// mailparser's, for comparing the two MIME parsers on the same messages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { parseEmail, parseMime } from '../../src/mime/parse-email.js';
import { readHtml } from '../../src/mime/html-text.js';
import { linkDetails } from '../../src/mime/extract-links.js';
import { findOneTimeCodes } from '../../src/mime/one-time-codes.js';
import { snippetOf } from '../../src/mime/snippet.js';
import { loadAverage, positiveInt, round } from './measure.js';
import { buildBenchHtmlMessage, buildBenchMessage } from './smtp-load.js';

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** CPU ms per call of `step` over the messages, each called `rounds` times in all, after an unmeasured warm-up. */
async function perMessage<T>(inputs: T[], rounds: number, step: (input: T) => unknown): Promise<number> {
  const warmup = Math.max(200, Math.floor(rounds / 5));
  for (let i = 0; i < warmup; i++) await step(inputs[i % inputs.length]!);
  const started = cpuMs();
  for (let i = 0; i < rounds; i++) await step(inputs[i % inputs.length]!);
  return round((cpuMs() - started) / rounds, 4);
}

/** A newsletter of ~100 KB of HTML: many blocks, tables and links, as marketing mail is. */
function largeNewsletter(): Buffer {
  const story = (n: number) => `<tr><td class="story"><h2>Story ${n}: what changed this week</h2><p>Our team shipped ${n} improvements &amp; fixed
    the issues you reported. <a href="https://news.example.test/s/${n}?utm_source=mail&amp;utm_medium=email">Read more &rsaquo;</a></p>
    <table><tr><td><img src="https://cdn.example.test/${n}.jpg" alt="Picture ${n}" width="560"></td></tr></table></td></tr>`;
  const html = `<!DOCTYPE html><html><head><style>.story{padding:16px}h2{font-size:18px}</style></head><body><table width="600">${
    Array.from({ length: 220 }, (_, n) => story(n)).join('\n')}</table></body></html>`;
  const boundary = 'newsletter-boundary';
  return Buffer.from([
    'From: News <news@example.test>', 'To: reader@example.test', 'Subject: This week', 'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', 'This week: 220 stories. Read them at https://news.example.test/', '',
    `--${boundary}`, 'Content-Type: text/html; charset=utf-8', '', html, '', `--${boundary}--`, '',
  ].join('\r\n'));
}

interface Shape {
  name: string;
  raws: Buffer[];
}

function shapes(): Shape[] {
  const fixtures = path.join(PROJECT_ROOT, 'test/fixtures/eml');
  return [
    { name: 'bench text (5 KB)', raws: Array.from({ length: 64 }, (_, i) => Buffer.from(buildBenchMessage(i).raw)) },
    { name: 'bench html (5 KB)', raws: Array.from({ length: 64 }, (_, i) => Buffer.from(buildBenchHtmlMessage(i).raw)) },
    { name: 'eml fixtures', raws: fs.readdirSync(fixtures).filter((file) => file.endsWith('.eml')).sort().map((file) => fs.readFileSync(path.join(fixtures, file))) },
    { name: 'newsletter (100 KB html)', raws: [largeNewsletter()] },
  ];
}

type PostalMimeParse = (raw: Buffer) => Promise<unknown>;

async function loadPostalMime(folder: string): Promise<PostalMimeParse> {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { exports: { '.': { import: string } } };
  const module = (await import(pathToFileURL(path.join(folder, manifest.exports['.'].import)).href)) as { default: { parse: PostalMimeParse } };
  return (raw) => module.default.parse(raw);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'postal-mime': { type: 'string' } } });
  const rounds = positiveInt('--rounds', values.rounds, 2000);
  const postalMime = values['postal-mime'] ? await loadPostalMime(path.resolve(values['postal-mime'])) : null;
  const loadAtStart = loadAverage();
  const results = [];
  for (const shape of shapes()) {
    // Each step is timed on what the step before it gives, parsed once up front.
    const parsed = await Promise.all(shape.raws.map(async (raw) => {
      const mime = await parseMime(raw).catch(() => null);
      const html = typeof mime?.html === 'string' ? mime.html : '';
      const text = mime?.text ?? '';
      return { subject: mime?.subject ?? '', html, text, reading: readHtml(html) };
    }));
    const steps: Record<string, number> = {
      parse_email: await perMessage(shape.raws, rounds, parseEmail),
      mailparser: await perMessage(shape.raws, rounds, (raw) => parseMime(raw).catch(() => null)),
      ...(postalMime ? { postal_mime: await perMessage(shape.raws, rounds, (raw) => postalMime(raw).catch(() => null)) } : {}),
      html_reading: await perMessage(parsed, rounds, ({ html }) => readHtml(html)),
      link_details: await perMessage(parsed, rounds, ({ reading, text }) => linkDetails(reading.anchors, text)),
      one_time_codes: await perMessage(parsed, rounds, ({ subject, text, reading }) => findOneTimeCodes({ subject, text, html: reading.text })),
      snippet: await perMessage(parsed, rounds, ({ text, reading }) => snippetOf(text.trim() === '' ? reading.text : text)),
    };
    results.push({ shape: shape.name, messages: shape.raws.length, mean_bytes: Math.round(shape.raws.reduce((sum, raw) => sum + raw.length, 0) / shape.raws.length), cpu_ms_per_message: steps });
    process.stderr.write(`[bench:parse] ${shape.name}: parseEmail ${steps.parse_email} ms\n`);
  }
  process.stdout.write(`${JSON.stringify({
    bench: 'parse-cpu',
    rounds_per_step: rounds,
    note: 'CPU ms per message on one thread; parse_email is the whole analysis, the other steps are parts of it (postal_mime, when given, replaces mailparser)',
    results,
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: { start: loadAtStart, end: loadAverage() },
  })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`parse-cpu bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
