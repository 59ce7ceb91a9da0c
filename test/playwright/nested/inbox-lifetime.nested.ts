// Run by inbox-lifetime.spec.ts with MAIL_SANDBOX_KEEP_ON_FAILURE=1 (and MAIL_SANDBOX_URL/KEY); each test notes its
// inbox's id in an annotation of type 'inbox', for that spec to look the inbox up once the run is over.
import { test, expect } from 'mail-sandbox/playwright';

const noteInbox = (id: string) => test.info().annotations.push({ type: 'inbox', description: id });

test('passes', async ({ mailbox }) => {
  noteInbox(mailbox.id);
  expect(mailbox.id).toMatch(/^inb_/);
});

test('fails, keeping its inbox', async ({ mailbox }) => {
  noteInbox(mailbox.id);
  expect(mailbox.id, 'fails on purpose').toBe('another inbox');
});

test.describe('keepInboxOnFailure: false', () => {
  test.use({ keepInboxOnFailure: false });

  test('fails, deleting its inbox', async ({ mailbox }) => {
    noteInbox(mailbox.id);
    expect(mailbox.id, 'fails on purpose').toBe('another inbox');
  });
});

test.describe('no service URL', () => {
  test.use({ mailSandboxUrl: '' });

  test('cannot make an inbox', async ({ mailbox }) => {
    noteInbox(mailbox.id);
  });
});
