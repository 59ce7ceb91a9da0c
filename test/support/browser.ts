// Browser tests' harness: Debian's Chromium driven by playwright-core (never a Playwright browser download), installed
// with scripts/services/up when missing; axe-core for accessibility; a watch on console CSP violations.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/project-root.js';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Installs Debian's chromium package through scripts/services/up (apt-get; needs root) when it is missing. */
export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  const up = spawnSync(path.join(PROJECT_ROOT, 'scripts/services/up'), ['chromium'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  assert.ok(up.status === 0 && fs.existsSync(CHROMIUM), `${CHROMIUM} is missing and scripts/services/up chromium could not install it`);
}

export async function launchChromium(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** Signs in through the dashboard's sign-in page and waits for the page it lands on (Inboxes). */
export async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('sign-in');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Inboxes' }).waitFor();
}

/**
 * A page of a new context at the dashboard `baseUrl` (ending in '/'), signed in as `email`, whose console `watch`
 * records: how a browser suite begins.
 */
export async function signedInPage(browser: Browser, baseUrl: string, watch: ConsoleWatch, email: string, password: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, ...options });
  watch.watch(context);
  const page = await context.newPage();
  await signInThroughPage(page, email, password);
  return page;
}

/** Console messages and page errors of every page in a context, to look for CSP violations afterwards. */
export class ConsoleWatch {
  readonly messages: string[] = [];
  /** The URL of the document each message came from, by message index ('' when the browser does not say). */
  private readonly sources: string[] = [];

  watch(context: BrowserContext): void {
    context.on('console', (message) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return;
      this.messages.push(`${message.type()}: ${message.text()}`);
      this.sources.push(message.location().url);
    });
    context.on('weberror', (error) => {
      this.messages.push(`page error: ${error.error().message}`);
      this.sources.push('');
    });
  }

  cspViolations(): string[] {
    return this.messages.filter((text) => /Content Security Policy/i.test(text));
  }

  /** CSP violations reported by documents whose URL matches `source`, such as a mail's page in a frame. */
  cspViolationsFrom(source: RegExp): string[] {
    return this.messages.filter((text, index) => /Content Security Policy/i.test(text) && source.test(this.sources[index]!));
  }

  /** CSP violations reported by any other document: the dashboard's own, say, apart from the mail it frames. */
  cspViolationsNotFrom(source: RegExp): string[] {
    return this.messages.filter((text, index) => /Content Security Policy/i.test(text) && !source.test(this.sources[index]!));
  }
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Which part of the page axe checks, and with which rules: the whole page with all of them when nothing is said. */
export interface AxeScope {
  /** CSS selectors of the elements checked (the document when absent). */
  include?: string[];
  /** CSS selectors of elements left out. */
  exclude?: string[];
  /** axe rule ids not run, for markup that is a third party's and cannot be changed here. */
  skipRules?: string[];
}

/**
 * Runs axe-core on the page as it is and fails on serious or critical violations. The script goes in through the
 * DevTools protocol (page.evaluate), which the page's CSP does not govern, so the app's CSP stays on.
 */
export async function expectAccessible(page: Page, what: string, scope: AxeScope = {}): Promise<void> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const context = scope.include === undefined && scope.exclude === undefined ? 'document'
    : JSON.stringify({ include: (scope.include ?? ['html']).map((selector) => [selector]), exclude: (scope.exclude ?? []).map((selector) => [selector]) });
  const rules = JSON.stringify(Object.fromEntries((scope.skipRules ?? []).map((rule) => [rule, { enabled: false }])));
  // A string, evaluated in the page: this file is compiled without the DOM's types.
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(${context}, { resultTypes: ['violations'], rules: ${rules} }).then((result) =>
    result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) })))`);
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.deepEqual(
    serious.map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`),
    [],
    `axe-core found serious or critical violations on ${what}`,
  );
}
