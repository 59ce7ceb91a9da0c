// Measures the dashboard's message list in Debian's Chromium against a started server: the time to show an inbox of
// 100,000 messages (navigation to its newest row on screen; the messages loaded with `admin import` from a generated
// mbox), the arrival latency from the SMTP 250 to the row on screen in the open inbox, and the time from clicking a
// row to the email's first paint in the viewer's frame (a realistic HTML mail: an order-shipped mail with an inline
// logo); prints JSON. Embedded profile; SANDBOX_TEST_PROFILE=cluster (services up) for the cluster profile. Run
// `npm run bench:dashboard-inbox -- [--messages N] [--runs 5]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import type { InboxWithCredentialsJson } from '../../test/support/api-json.js';
import { launchChromium, signInThroughPage } from '../../test/support/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, signInFirstOwner } from '../../test/support/dashboard.js';
import { expectOk } from '../../test/support/envelope.js';
import { bulkImportConcurrency, importMbox, writeMbox } from '../../test/support/mbox.js';
import { profileEnv, testProfile } from '../../test/support/profile.js';
import { startServer } from '../../test/support/server.js';
import { orderShippedMail } from '../../test/support/order-mail.js';
import { credentialsOf, sendMails, smtpTransport } from '../../test/support/smtp.js';
import { percentile, positiveInt, round } from './measure.js';

const { values } = parseArgs({ options: { messages: { type: 'string' }, runs: { type: 'string' } } });
const messages = positiveInt('--messages', values.messages, 100_000);
const runs = positiveInt('--runs', values.runs, 5);
const progress = (line: string) => process.stderr.write(`[bench:dashboard-inbox] ${line}\n`);
const median = (samples: number[]) => round(percentile([...samples].sort((a, b) => a - b), 50));

const server = await startServer();
const browser = await launchChromium();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-inbox-'));
try {
  const session = await signInFirstOwner(server);
  const inbox = expectOk<InboxWithCredentialsJson>(await session.request('POST', '/v1/inboxes', { body: { name: 'bench' } }), 201);
  const mbox = path.join(folder, 'bulk.mbox');
  await writeMbox(mbox, messages);
  progress(`importing ${messages} messages (${testProfile()} profile)`);
  const loadStarted = performance.now();
  const imported = await importMbox(server, inbox.id, mbox, bulkImportConcurrency());
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  const context = await browser.newContext({ baseURL: `${server.httpUrl}/` });
  const page = await context.newPage();
  await signInThroughPage(page, OWNER_EMAIL, OWNER_PASSWORD);

  const showTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    // From the navigation's start to the newest message's row on screen, as the page itself measures it.
    await page.goto(`inboxes/${inbox.id}`);
    await page.getByRole('listitem').filter({ hasText: `Bulk message ${messages}` }).waitFor();
    showTimes.push(await page.evaluate<number>('performance.now()'));
  }

  await page.getByText('Live: new mail appears as it arrives.').waitFor();
  const arrivals: number[] = [];
  const transport = smtpTransport(credentialsOf(inbox));
  try {
    for (let run = 0; run < runs; run++) {
      const subject = `Arrival ${run}`;
      const shown = page.evaluate<number>(`new Promise((resolve) => {
        const check = () => [...document.querySelectorAll('[role="listitem"]')].some((item) => item.textContent.includes(${JSON.stringify(subject)}))
          ? resolve(performance.timeOrigin + performance.now()) : requestAnimationFrame(check);
        check();
      })`);
      await transport.sendMail({ from: 'app@example.com', to: 'user@example.com', subject, text: 'bench' });
      const acceptedAt = performance.timeOrigin + performance.now();
      arrivals.push((await shown) - acceptedAt);
    }
  } finally {
    transport.close();
  }

  // Click to first paint: each run opens a mail not opened before, from the inbox's list.
  await sendMails(credentialsOf(inbox), Array.from({ length: runs }, (_, run) => orderShippedMail(`Order ${run} shipped`)));
  const openTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`inboxes/${inbox.id}`);
    const row = page.getByRole('link').filter({ hasText: `Order ${run} shipped` });
    await row.waitFor();
    // The frame is sandboxed without allow-same-origin, so this page can neither see into it nor hear its paint. What
    // it hears is the frame's first height report: the preview script posts it from a ResizeObserver, whose first
    // callback runs once the mail's page is laid out, in the frame's rendering step right before that page's first
    // paint. The dashboard then sizes the frame; the first animation frame after the report and a task queued from it
    // (which runs once that frame is painted) put the end after the paint that shows the mail. The frame's load event
    // would come later than the paint (it waits for the mail's images) and says nothing about the parent's paint.
    const painted = page.evaluate<number>(`new Promise((resolve) => {
      let clickedAt = 0;
      document.addEventListener('click', () => { clickedAt = performance.now(); }, { capture: true, once: true });
      const onMessage = (event) => {
        const frame = document.querySelector('iframe.mail-frame');
        if (frame === null || event.source !== frame.contentWindow || typeof event.data?.mailFrameHeight !== 'number') return;
        removeEventListener('message', onMessage);
        requestAnimationFrame(() => {
          const after = new MessageChannel();
          after.port1.onmessage = () => resolve(performance.now() - clickedAt);
          after.port2.postMessage(null);
        });
      };
      addEventListener('message', onMessage);
    })`);
    await row.click();
    openTimes.push(await painted);
    await page.getByRole('heading', { level: 1, name: `Order ${run} shipped` }).waitFor();
  }

  console.log(JSON.stringify({
    profile: testProfile(),
    messages,
    load: { via: 'admin import (mbox)', concurrency: bulkImportConcurrency(), seconds: round(loadSeconds, 1), messages_per_second: round(imported.imported / loadSeconds, 0) },
    show_inbox_ms: { runs, median: median(showTimes), max: round(Math.max(...showTimes)) },
    arrival_smtp_250_to_row_ms: { runs, median: median(arrivals), max: round(Math.max(...arrivals)) },
    open_click_to_mail_paint_ms: { runs, median: median(openTimes), max: round(Math.max(...openTimes)) },
  }, null, 2));
} finally {
  await browser.close();
  await server.stop();
  if (testProfile() === 'cluster') await purgeClusterNamespace(loadConfig({ ...process.env, SANDBOX_DATA_DIR: server.dataDir, ...profileEnv(server.dataDir) }));
  fs.rmSync(folder, { recursive: true, force: true });
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
