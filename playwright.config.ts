// `npx playwright test` from the project root runs the Playwright fixture's suite: its config is in test/playwright/.
export { default } from './test/playwright/playwright.config.js';
