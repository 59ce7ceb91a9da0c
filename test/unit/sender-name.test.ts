// The sender and the first recipient a dashboard message row shows: the From header's display name, else its
// address; the first address the message went to.
import { strict as assert } from 'node:assert';
import { firstRecipient, senderName } from '../../src/dashboard/components/inbox/sender-name.js';

describe('senderName (dashboard message rows)', function () {
  it('shows the display name, quoted or not', function () {
    assert.equal(senderName('"Acme Shop" <orders@acme-shop.example>'), 'Acme Shop');
    assert.equal(senderName('Maria Oliveira <maria@partner.example>'), 'Maria Oliveira');
    assert.equal(senderName('"Oliveira, Maria \\"M\\"" <maria@partner.example>'), 'Oliveira, Maria "M"');
  });

  it('shows the first mailbox of several', function () {
    assert.equal(senderName('"Ops" <ops@example.com>, Dev <dev@example.com>'), 'Ops');
  });

  it('falls back to the address when there is no name', function () {
    assert.equal(senderName('<bounce@example.com>'), 'bounce@example.com');
    assert.equal(senderName('"" <bounce@example.com>'), 'bounce@example.com');
    assert.equal(senderName('calendar@work.example'), 'calendar@work.example');
  });

  it('shows the first recipient by address, from To, else from the envelope', function () {
    assert.equal(firstRecipient('"Jane, Doe" <jane@example.test>, bob@example.test', ['x@example.test']), 'jane@example.test');
    assert.equal(firstRecipient('bob@example.test, carol@example.test', []), 'bob@example.test');
    assert.equal(firstRecipient('undisclosed-recipients:;', ['hidden@example.test']), 'hidden@example.test');
    assert.equal(firstRecipient('', []), '');
  });
});
