// The run inbox-lifetime.spec.ts starts inside its test, to see what the fixture does with each test's inbox when
// the test passes or fails: its tests fail on purpose, so the suite's own config does not pick them up.
import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/project-root.js';
import { testProfile } from '../../support/profile.js';

export default defineConfig({
  testDir: '.',
  testMatch: '*.nested.ts',
  workers: 1,
  retries: 0,
  // One folder per profile: npm test runs both profiles' suites at once.
  outputDir: path.join(PROJECT_ROOT, 'dist', `playwright-results-${testProfile()}`, 'nested'),
});
