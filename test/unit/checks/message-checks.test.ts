// The message-check seam: every check in the product's list is served by the route template at its path in
// openapi.yaml, and a check more, defined here and added to the list without touching a file of src/, is served,
// runs its step on a content worker and is refused by the same rules as the others.
import { strict as assert } from 'node:assert';
import { contentStep, ContentPool } from '../../../src/content/content-pool.js';
import { loadConfig } from '../../../src/config.js';
import type { MessageRecord } from '../../../src/domain/types.js';
import { AppError } from '../../../src/errors.js';
import { messageCheckHandlers } from '../../../src/http/routes/message-checks.js';
import { loadOpenApi } from '../../../src/http/openapi.js';
import { NameResolver, nameResolverSettings } from '../../../src/outbound/name-resolver.js';
import { MessageCheckRunner } from '../../../src/services/checks/check-runner.js';
import type { MessageCheck } from '../../../src/services/checks/message-check.js';
import { messageChecks } from '../../../src/services/checks/message-checks.js';
import type { Principal } from '../../../src/services/accounts/principal.js';
import type { countWords } from '../../support/word-count-step.js';
import { noAddresses } from '../../../src/domain/mailbox-key.js';

const WORKSPACE = { id: 'ws_checks_test', name: 'checks', planName: 'unlimited', createdAt: new Date(0) };
const principal: Principal = { kind: 'key', workspace: WORKSPACE, keyId: 'key_checks_test', access: 'read' };

const RAW = Buffer.from([
  'From: ana@example.test',
  'To: bo@example.test',
  'Subject: words',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'one three seven',
  '',
].join('\r\n'));

const record = (overrides: Partial<MessageRecord> = {}): MessageRecord => ({
  id: 'msg_words', workspaceId: WORKSPACE.id, inboxId: 'inb_words', receivedAt: new Date(0), envelopeFrom: 'ana@example.test',
  recipients: ['bo@example.test'], from: 'ana@example.test', to: 'bo@example.test', cc: '', subject: 'words', messageId: '',
  size: RAW.byteLength, hasText: true, hasHtml: false, attachmentCount: 0, inlineCount: 0, linkCount: 0, snippet: 'one three seven', codes: [], linkDetails: [], tls: false, parseError: null, analysisCutShort: false,
  read: false, tags: [], rawKey: 'raw/msg_words', search: { subject: '', sender: '', recipients: '', body: '', to: '', cc: '', bcc: '', replyTo: '', messageId: '', addresses: noAddresses() },
  ...overrides,
});

/** A check more: words longer than `longer` letters (a query parameter it would declare in openapi.yaml). */
const COUNT_WORDS = contentStep<typeof countWords>(import.meta.url, '../../support/word-count-step', 'countWords');
const wordCount: MessageCheck<{ longer: number }, number, { Words: number }, 'countWords'> = {
  name: 'word-count',
  operationId: 'countWords',
  title: 'word count',
  needs: { message: 'parsed', outside: 'nobody' },
  budget: { requestTimeoutMs: 1000, maxMessageBytes: { bytes: 1024, setting: 'SANDBOX_WORD_COUNT_MAX_BYTES' } },
  notConfigured: null,
  run: (message, { query }) => message.inPool(COUNT_WORDS, query.longer),
  present: (words) => ({ Words: words }),
};

describe('message checks', function () {
  this.timeout(30_000);
  const config = loadConfig({});
  const names = new NameResolver(nameResolverSettings(config));
  let pool: ContentPool;

  before(() => {
    pool = new ContentPool({ threads: 1, idleMs: 30_000, taskTimeoutMs: 5000, memoryMb: 256, readsPerWorkspace: 4, thumbnailMaxPixels: 1, thumbnailConcurrency: 1, thumbnailMemoryMb: 512 });
  });

  after(async () => {
    await pool.close();
  });

  it('serves each check of the list at GET /v1/messages/{id}/<name>, under its operation in openapi.yaml', () => {
    const operations = loadOpenApi().operations;
    for (const check of messageChecks(config, names)) {
      const operation = operations.find((candidate) => candidate.operationId === check.operationId);
      assert.ok(operation, `openapi.yaml has no operation ${check.operationId}`);
      assert.deepEqual({ method: operation.method, path: operation.path }, { method: 'get', path: `/v1/messages/{id}/${check.name}` });
    }
  });

  it('serves a check added to the list: its step runs on a content worker, its presenter makes the answer', async () => {
    const runner = new MessageCheckRunner({ require: async () => record(), rawOf: async () => RAW }, pool);
    const handlers = messageCheckHandlers([...messageChecks(config, names), wordCount], runner);
    assert.deepEqual(Object.keys(handlers).sort(), ['checkMessageLinks', 'countWords', 'getMessageAuthCheck', 'getMessageHtmlCheck', 'spamCheck']);
    const answer = await handlers.countWords({ principal, params: { id: 'msg_words' }, query: { longer: 3 }, signal: new AbortController().signal });
    assert.deepEqual(answer, { data: { Words: 2 } });
  });

  it('holds the added check to the rules every check has: a cut-short analysis and a message over its budget are refused', async () => {
    const refusal = async (found: MessageRecord) => {
      const runner = new MessageCheckRunner({ require: async () => found, rawOf: async () => RAW }, pool);
      const handlers = messageCheckHandlers([wordCount], runner);
      const answer = handlers.countWords({ principal, params: { id: found.id }, query: { longer: 0 }, signal: new AbortController().signal });
      return answer.then(() => assert.fail('the check ran'), (error: unknown) => error);
    };
    const cutShort = await refusal(record({ parseError: 'analysis stopped after 5 s (the limit per message)', analysisCutShort: true }));
    assert.ok(cutShort instanceof AppError && cutShort.code === 'analysis_limit', String(cutShort));
    const large = await refusal(record({ size: 4096 }));
    assert.ok(large instanceof AppError && large.code === 'analysis_limit', String(large));
    assert.match(large.message, /the word count takes messages of at most 1024 bytes \(SANDBOX_WORD_COUNT_MAX_BYTES\)/);
  });
});
