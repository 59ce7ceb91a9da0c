// The policy chain: policies are asked in order, only at the hooks they have, and the first that does not continue decides;
// at AUTH only after the login opened an inbox.
import { strict as assert } from 'node:assert';
import { AppError } from '../../../src/errors.js';
import type { Inbox } from '../../../src/domain/types.js';
import { loginContext, smtpUtf8Policy } from '../../../src/smtp/session-policies.js';
import { CONTINUE, decide, refuse, type PolicyContext, type SmtpPolicy } from '../../../src/smtp/smtp-policy.js';

const context: PolicyContext = { sessionId: 's1', inbox: async () => null, loginPasswordHash: null, recipients: 0, path: null, smtpUtf8: false, sizeExceeded: false };

describe('SMTP policy chain', () => {
  it('asks the policies in order, skips those without the hook, and stops at the first refusal or drop', async () => {
    const asked: string[] = [];
    const policy = (name: string, verdict = CONTINUE): SmtpPolicy => ({
      rcpt: async () => {
        asked.push(name);
        return verdict;
      },
    });
    const limit = refuse(new AppError('too_many_recipients', 'too many'));
    const chain = [policy('first'), { mail: async () => refuse(new AppError('quota_reached', 'x')) }, policy('limit', limit), policy('after')];
    assert.equal(await decide(chain, 'rcpt', context), limit);
    assert.deepEqual(asked, ['first', 'limit']);
    const drop = { kind: 'drop', code: 'chaos' } as const;
    assert.deepEqual(await decide([policy('a', drop), policy('b')], 'rcpt', context), drop);
  });

  it('continues when every policy does, or when none has the hook', async () => {
    assert.deepEqual(await decide([{ rcpt: async () => CONTINUE }], 'rcpt', context), CONTINUE);
    assert.deepEqual(await decide([{ rcpt: async () => refuse(new AppError('chaos', 'no')) }], 'data', context), CONTINUE);
  });

  it('passes on what a policy throws, for the server to answer like a refusal', async () => {
    const failing: SmtpPolicy = { mail: async () => { throw new AppError('storage_unavailable', 'down'); } };
    await assert.rejects(decide([failing], 'mail', context), (error: unknown) => error instanceof AppError && error.code === 'storage_unavailable');
  });

  it('asks the AUTH hooks only with the inbox the login opened; credentials that open none are refused first', async () => {
    const inbox = { id: 'inb_1', smtpPasswordHash: 'hash' } as Inbox;
    const context = await loginContext({ authenticateSmtp: async () => inbox }, 's1', 'user', 'password');
    const seen: Inbox[] = [];
    assert.deepEqual(await decide([{ auth: async (login) => { seen.push(await login.inbox()); return CONTINUE; } }], 'auth', context), CONTINUE);
    assert.deepEqual(seen, [inbox]);
    await assert.rejects(loginContext({ authenticateSmtp: async () => null }, 's1', 'user', 'wrong'),
      (error: unknown) => error instanceof AppError && error.code === 'auth_failed');
  });

  it('refuses a path sent beyond ASCII with 553 5.6.7 unless the transaction declared SMTPUTF8, at MAIL FROM and at RCPT TO', async () => {
    const at = (address: string, beyondAscii: boolean, smtpUtf8: boolean) => ({ ...context, path: { address, beyondAscii }, smtpUtf8 });
    for (const hook of ['mail', 'rcpt'] as const) {
      const refused = await decide([smtpUtf8Policy], hook, at('δοκιμή@παράδειγμα.δοκιμή', true, false));
      assert.equal(refused.kind, 'refuse');
      const error = (refused as Extract<typeof refused, { kind: 'refuse' }>).error;
      assert.equal(error.code, 'smtputf8_required');
      assert.deepEqual(error.smtpReply, { code: 553, enhanced: '5.6.7' });
      assert.match(error.message, /^[ -~]+$/, 'the reply is ASCII, as a client without SMTPUTF8 is owed');
      assert.deepEqual(await decide([smtpUtf8Policy], hook, at('δοκιμή@παράδειγμα.δοκιμή', true, true)), CONTINUE);
      assert.deepEqual(await decide([smtpUtf8Policy], hook, at('user@bücher.example', false, false)), CONTINUE, 'sent as punycode, shown in Unicode');
      assert.deepEqual(await decide([smtpUtf8Policy], hook, at('', false, false)), CONTINUE, 'the null sender');
    }
    assert.deepEqual(await decide([smtpUtf8Policy], 'data', context), CONTINUE);
  });
});
