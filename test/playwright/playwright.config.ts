// The Playwright fixture's own suite (npm run test:playwright; npm test runs it on both profiles): the fixture from
// the built package ('mail-sandbox/playwright', as its users import it) against a real server, driving Debian's
// Chromium. Nothing here downloads a browser.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { PROJECT_ROOT } from '../../src/project-root.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../support/browser.js';
import { testProfile } from '../support/profile.js';

/** This folder: paths are absolute so the root's playwright.config.ts (plain `npx playwright test`) can hand this on. */
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  testDir: here,
  testMatch: '*.spec.ts',
  globalSetup: path.join(here, 'global-setup.ts'),
  // The machine is shared and small; the tests are few.
  workers: 1,
  forbidOnly: true,
  reporter: 'list',
  // In the worktree's dist/ (ignored, and no other checkout's), not beside the sources; one folder per profile, as
  // npm test runs both profiles' suites at once and each run empties its folder first.
  outputDir: path.join(PROJECT_ROOT, 'dist', `playwright-results-${testProfile()}`),
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
  },
});
