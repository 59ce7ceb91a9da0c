// The search fields of a message: each header's own field, and Bcc as Mailpit has it (who got the message blind).
import { strict as assert } from 'node:assert';
import { FIELD_SEPARATOR, searchFields } from '../../../src/domain/search-text.js';
import { mailboxKeys } from '../../../src/domain/mailbox-key.js';

describe('searchFields', () => {
  const source = {
    subject: 'Hi', from: 'Ana <ana@x.test>', envelopeFrom: 'bounce@x.test', to: 'Bob <BOB@x.test>', cc: 'carol@x.test', bcc: '',
    replyTo: 'Help <help@x.test>', messageId: '<ID-1@x.test>', recipients: ['bob@x.test', 'carol@x.test', 'dan@x.test'],
    headerAddresses: { from: mailboxKeys(['ana@x.test']), to: mailboxKeys(['BOB@x.test']), cc: mailboxKeys(['carol@x.test']), bcc: [], replyTo: mailboxKeys(['help@x.test']) },
  };

  it('keeps To, Cc, Reply-To and Message-ID apart, normalised', () => {
    const fields = searchFields(source, '');
    assert.deepEqual([fields.to, fields.cc, fields.replyTo, fields.messageId], ['bob <bob@x.test>', 'carol@x.test', 'help <help@x.test>', '<id-1@x.test>']);
  });

  it('gives Bcc the Bcc header and the envelope recipients no To or Cc header names, all of them among the recipients', () => {
    assert.equal(searchFields(source, '').bcc, 'dan@x.test');
    const withHeader = searchFields({ ...source, bcc: 'Eve <eve@x.test>', recipients: [...source.recipients, 'eve@x.test'], headerAddresses: { ...source.headerAddresses, bcc: ['eve@x.test'] } }, '');
    assert.equal(withHeader.bcc, `eve <eve@x.test>${FIELD_SEPARATOR}dan@x.test${FIELD_SEPARATOR}eve@x.test`);
    for (const value of withHeader.bcc.split(FIELD_SEPARATOR)) assert.ok(withHeader.recipients.split(FIELD_SEPARATOR).includes(value), value);
    assert.equal(searchFields({ ...source, recipients: ['bob@x.test'] }, '').bcc, '');
  });

  it('takes a recipient for blind by its address, not by a substring of To or Cc', () => {
    const fields = searchFields({ ...source, to: 'ba@x.test', cc: '', recipients: ['a@x.test', 'ba@x.test'], headerAddresses: { ...source.headerAddresses, to: ['ba@x.test'], cc: [] } }, '');
    assert.equal(fields.bcc, 'a@x.test');
    assert.deepEqual(fields.addresses.bcc, ['a@x.test']);
  });

  it('keys the header addresses, the envelope sender and the blind recipients, each list once and sorted', () => {
    const { addresses } = searchFields({ ...source, envelopeFrom: 'Bounce@X.test', recipients: ['BOB@x.test', 'zed@x.test', 'dan@x.test', 'Dan@X.TEST'] }, '');
    assert.deepEqual(addresses, {
      from: ['ana@x.test'], envelopeFrom: ['bounce@x.test'], to: ['bob@x.test'], cc: ['carol@x.test'], bcc: ['dan@x.test', 'zed@x.test'], replyTo: ['help@x.test'],
    });
    assert.deepEqual(searchFields({ ...source, envelopeFrom: '' }, '').addresses.envelopeFrom, [], 'the null sender names no address');
  });
});
