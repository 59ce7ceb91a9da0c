// What the fixture does with a test's inbox afterwards, seen from outside: a Playwright run of
// nested/inbox-lifetime.nested.ts (tests that pass and that fail on purpose, MAIL_SANDBOX_KEEP_ON_FAILURE=1) reports
// in JSON, and each test's inbox is then looked up on the server. A failed test cannot observe its own teardown,
// so the run is nested.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONReport, JSONReportTestResult } from '@playwright/test/reporter';
import { MailSandboxError, type MailSandbox } from 'mail-sandbox/client';
import { test, expect, KEPT_INBOX } from 'mail-sandbox/playwright';
import { PROJECT_ROOT } from '../../src/project-root.js';

const NESTED_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'nested', 'playwright.config.ts');

/** Runs the nested suite with the environment this worker has (MAIL_SANDBOX_URL/KEY) and `env`; its JSON report. */
async function runNested(env: Record<string, string>): Promise<JSONReport> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', NESTED_CONFIG, '--reporter=json'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // 1: some tests failed, as they should; anything else is the runner's own trouble.
  expect(status, `the nested run exited with ${status}: ${stderr}`).toBe(1);
  return JSON.parse(stdout) as JSONReport;
}

/** Each nested test's only result, by title. */
function resultsByTitle(report: JSONReport): Map<string, JSONReportTestResult> {
  const results = new Map<string, JSONReportTestResult>();
  const visit = (suite: JSONReport['suites'][number]) => {
    for (const spec of suite.specs) results.set(spec.title, spec.tests[0]!.results[0]!);
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return results;
}

const annotation = (result: JSONReportTestResult, type: string) => result.annotations.find((note) => note.type === type)?.description;

async function inboxGone(sandbox: MailSandbox, id: string): Promise<boolean> {
  try {
    await sandbox.inboxes.get(id);
    return false;
  } catch (error) {
    if (error instanceof MailSandboxError && error.code === 'not_found') return true;
    throw error;
  }
}

test('deletes a passing test\'s inbox, keeps a failed one\'s when asked and names it in the report', async ({ mailSandbox }) => {
  test.setTimeout(120_000);
  const results = resultsByTitle(await runNested({ MAIL_SANDBOX_KEEP_ON_FAILURE: '1' }));

  const passed = results.get('passes')!;
  expect(passed.status).toBe('passed');
  const passedInbox = annotation(passed, 'inbox')!;
  expect(passedInbox).toMatch(/^inb_/);
  expect(annotation(passed, KEPT_INBOX)).toBeUndefined();
  expect(await inboxGone(mailSandbox, passedInbox)).toBe(true);

  const kept = results.get('fails, keeping its inbox')!;
  expect(kept.status).toBe('failed');
  const keptInbox = annotation(kept, 'inbox')!;
  expect(annotation(kept, KEPT_INBOX)).toBe(`${keptInbox} (${(await mailSandbox.inboxes.get(keptInbox)).name}): ${process.env.MAIL_SANDBOX_URL}/inboxes/${keptInbox}`);
  const attachment = kept.attachments.find((file) => file.name === KEPT_INBOX)!;
  expect(attachment.contentType).toBe('text/plain');
  expect(Buffer.from(attachment.body!, 'base64').toString('utf8')).toContain(`Dashboard: ${process.env.MAIL_SANDBOX_URL}/inboxes/${keptInbox}\n`);
  await mailSandbox.inboxes.delete(keptInbox);

  const deleted = results.get('fails, deleting its inbox')!;
  expect(deleted.status).toBe('failed');
  expect(annotation(deleted, KEPT_INBOX)).toBeUndefined();
  expect(await inboxGone(mailSandbox, annotation(deleted, 'inbox')!)).toBe(true);

  const unconfigured = results.get('cannot make an inbox')!;
  expect(unconfigured.status).toBe('failed');
  expect(unconfigured.error?.message).toContain('mail-sandbox/playwright: set MAIL_SANDBOX_URL');
});
