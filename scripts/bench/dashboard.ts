// Measures the built dashboard: its gzipped size (JS, CSS, index.html) and the time to first render of the sign-in
// page in Debian's Chromium against a started server (embedded profile); prints JSON. Run `npm run bench:dashboard -- [--runs 5]`.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_ROOT } from '../../src/http/dashboard-site.js';
import { launchChromium } from '../../test/support/browser.js';
import { startServer } from '../../test/support/server.js';
import { percentile, positiveInt, round } from './measure.js';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = positiveInt('--runs', values.runs, 5);

function gzippedBytes(file: string): number {
  return gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

const assets = fs.readdirSync(path.join(DASHBOARD_ROOT, 'assets')).map((name) => path.join(DASHBOARD_ROOT, 'assets', name));
const sum = (files: string[], measure: (file: string) => number) => files.reduce((total, file) => total + measure(file), 0);
const js = assets.filter((file) => file.endsWith('.js'));
const css = assets.filter((file) => file.endsWith('.css'));
const size = {
  js_bytes: sum(js, (file) => fs.statSync(file).size),
  js_gzip_bytes: sum(js, gzippedBytes),
  css_gzip_bytes: sum(css, gzippedBytes),
  index_html_gzip_bytes: gzippedBytes(path.join(DASHBOARD_ROOT, 'index.html')),
};

const server = await startServer();
const browser = await launchChromium();
const renders: number[] = [];
const paints: number[] = [];
try {
  for (let run = 0; run < runs; run += 1) {
    // A fresh context each time: nothing cached, as on a first visit.
    const context = await browser.newContext({ baseURL: `${server.httpUrl}/` });
    const page = await context.newPage();
    await page.goto('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    renders.push(await page.evaluate<number>('performance.now()'));
    paints.push(await page.evaluate<number>(`(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: NaN }).startTime`));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

console.log(JSON.stringify({
  bundle: { ...size, total_gzip_bytes: size.js_gzip_bytes + size.css_gzip_bytes + size.index_html_gzip_bytes },
  sign_in_first_render_ms: { runs, median: round(percentile(renders.sort((a, b) => a - b), 50)), max: round(Math.max(...renders)) },
  sign_in_first_contentful_paint_ms: { median: round(percentile(paints.sort((a, b) => a - b), 50)) },
}, null, 2));
