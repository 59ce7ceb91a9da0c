// The search fields of a message: each header's own field, and Bcc as Mailpit has it (who got the message blind).
import { strict as assert } from 'node:assert';
import { FIELD_SEPARATOR, searchFields } from '../../../src/domain/search-text.js';

describe('searchFields', () => {
  const source = {
    subject: 'Hi', from: 'Ana <ana@x.test>', envelopeFrom: 'bounce@x.test', to: 'Bob <BOB@x.test>', cc: 'carol@x.test', bcc: '',
    replyTo: 'Help <help@x.test>', messageId: '<ID-1@x.test>', recipients: ['bob@x.test', 'carol@x.test', 'dan@x.test'],
  };

  it('keeps To, Cc, Reply-To and Message-ID apart, normalised', () => {
    const fields = searchFields(source, '');
    assert.deepEqual([fields.to, fields.cc, fields.replyTo, fields.messageId], ['bob <bob@x.test>', 'carol@x.test', 'help <help@x.test>', '<id-1@x.test>']);
  });

  it('gives Bcc the Bcc header and the envelope recipients no To or Cc header names, all of them among the recipients', () => {
    assert.equal(searchFields(source, '').bcc, 'dan@x.test');
    const withHeader = searchFields({ ...source, bcc: 'Eve <eve@x.test>', recipients: [...source.recipients, 'eve@x.test'] }, '');
    assert.equal(withHeader.bcc, `eve <eve@x.test>${FIELD_SEPARATOR}dan@x.test${FIELD_SEPARATOR}eve@x.test`);
    for (const value of withHeader.bcc.split(FIELD_SEPARATOR)) assert.ok(withHeader.recipients.split(FIELD_SEPARATOR).includes(value), value);
    assert.equal(searchFields({ ...source, recipients: ['bob@x.test'] }, '').bcc, '');
  });
});
