// The envelope an imported message gets from its headers: sender from Return-Path or From, recipients from the address fields.
import { strict as assert } from 'node:assert';
import { headerEnvelope, opensWithHeaderField } from '../../src/mime/header-envelope.js';

const envelope = (text: string, maxRecipients = 100) => headerEnvelope(Buffer.from(text), maxRecipients);

describe('headerEnvelope', () => {
  it('takes the sender from the topmost Return-Path, before From', () => {
    assert.equal(envelope('Return-Path: <bounce@list.test>\nReturn-Path: <older@hop.test>\nFrom: Alice <alice@a.test>\n\n').envelopeFrom, 'bounce@list.test');
  });

  it('keeps the null sender of Return-Path: <> rather than falling back to From', () => {
    assert.equal(envelope('Return-Path: <>\nFrom: MAILER-DAEMON@a.test\n\n').envelopeFrom, '');
  });

  it('falls back to the first From address, and to nothing without one', () => {
    assert.equal(envelope('From: "Shop, Inc." <shop@a.test>, other@a.test\nTo: me@b.test\n\n').envelopeFrom, 'shop@a.test');
    assert.equal(envelope('To: me@b.test\n\n').envelopeFrom, '');
  });

  it('collects To, Cc, Bcc, X-Original-To and Delivered-To, unfolded, groups flattened, each address once', () => {
    const { recipients } = envelope([
      'To: Me <me@b.test>,',
      '  "Team, QA" <qa@b.test>',
      'Cc: Friends: ann@c.test, Bob <bob@c.test>;, undisclosed-recipients:;',
      'Bcc: hidden@d.test',
      'X-Original-To: ME@b.test',
      'Delivered-To: box@b.test',
      'Reply-To: not-a-recipient@e.test',
      '',
      'To: body-line@f.test',
      '',
    ].join('\r\n'));
    assert.deepEqual(recipients, ['me@b.test', 'qa@b.test', 'ann@c.test', 'bob@c.test', 'hidden@d.test', 'box@b.test']);
  });

  it('keeps at most maxRecipients, in header order', () => {
    assert.deepEqual(envelope('To: a@x.test, b@x.test, c@x.test\n\n', 2).recipients, ['a@x.test', 'b@x.test']);
  });

  it('reads a message that is all header section', () => {
    assert.deepEqual(envelope('From: a@x.test\nTo: b@x.test'), { envelopeFrom: 'a@x.test', recipients: ['b@x.test'] });
  });
});

describe('opensWithHeaderField', () => {
  it('accepts a first line that is a header field, also in the obsolete form with space before the colon', () => {
    assert.equal(opensWithHeaderField(Buffer.from('Received: from x\r\n')), true);
    assert.equal(opensWithHeaderField(Buffer.from('Subject : old style\n')), true);
  });

  it('refuses empty input, text, binary and a body-first message', () => {
    for (const text of ['', 'hello world\n', '\x89PNG\r\n\x1a\n', '\nSubject: late\n', ': no name\n']) {
      assert.equal(opensWithHeaderField(Buffer.from(text, 'latin1')), false, JSON.stringify(text));
    }
  });
});
