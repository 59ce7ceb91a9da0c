// A Playwright run of one file of nested/ in a child process, with the environment this worker has
// (MAIL_SANDBOX_URL/KEY) and more, reporting in JSON: for the specs that look at what the fixture does once a test
// has ended, which the test itself cannot observe.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONReport, JSONReportTestResult } from '@playwright/test/reporter';
import { expect } from '@playwright/test';
import { PROJECT_ROOT } from '../../src/project-root.js';

const NESTED_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'nested', 'playwright.config.ts');

/** Runs `file` (a name in nested/) with `env` added; its JSON report. Some of its tests fail, as they are meant to. */
export async function runNested(file: string, env: Record<string, string> = {}): Promise<JSONReport> {
  const cli = path.join(PROJECT_ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  // The file as a filter Playwright matches against the path: its name with the folder, its dots as themselves.
  const filter = `nested/${file}`.replace(/[.]/g, '\\.');
  const child = spawn(process.execPath, [cli, 'test', '--config', NESTED_CONFIG, '--reporter=json', filter], {
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
export function resultsByTitle(report: JSONReport): Map<string, JSONReportTestResult> {
  const results = new Map<string, JSONReportTestResult>();
  const visit = (suite: JSONReport['suites'][number]) => {
    for (const spec of suite.specs) results.set(spec.title, spec.tests[0]!.results[0]!);
    suite.suites?.forEach(visit);
  };
  report.suites.forEach(visit);
  return results;
}

/** The description of the result's first annotation of `type`. */
export const annotation = (result: JSONReportTestResult, type: string) => result.annotations.find((note) => note.type === type)?.description;
