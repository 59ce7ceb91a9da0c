// The search text padding of the messages index: invisible to every needle of three or more characters, and never part of a message.
import { strict as assert } from 'node:assert';
import { FIELD_SEPARATOR, normalizeSearchText, searchBody, searchFields } from '../../../src/domain/search-text.js';
import { noHeaderAddresses } from '../../../src/domain/mailbox-key.js';
import { END_PADDING, fromFormat1, PADDING_CHARACTER, padSearchText, unpadSearchText } from '../../../src/storage/cluster/search-document-format.js';

describe('search document format', () => {
  it('pads with a character that no normalised text or needle can hold, and that is not the field separator', () => {
    assert.equal(normalizeSearchText(`a${PADDING_CHARACTER}b${END_PADDING}`), 'ab');
    assert.notEqual(PADDING_CHARACTER, FIELD_SEPARATOR);
    const { addresses, ...texts } = searchFields({
      subject: `x${END_PADDING}`, from: END_PADDING, envelopeFrom: 'e', to: '', cc: '', bcc: END_PADDING, replyTo: END_PADDING, messageId: END_PADDING,
      recipients: [`r${END_PADDING}`, `r${END_PADDING}@x.test`], headerAddresses: noHeaderAddresses(),
    }, searchBody(END_PADDING, ''));
    assert.ok(Object.values(texts).every((text) => !text.includes(PADDING_CHARACTER)), JSON.stringify(texts));
    assert.deepEqual(addresses.bcc, [], 'an address holding a control character has no key');
  });

  it('gives back exactly the text it padded, and refuses a stored text without padding', () => {
    for (const text of ['', 'a', 'ab', 'hello world', `x${FIELD_SEPARATOR}y`]) assert.equal(unpadSearchText(padSearchText(text)), text);
    assert.throws(() => unpadSearchText('hello'), /lacks the end padding/);
  });

  it('upgrades a format 1 document by padding its four search texts and nothing else', () => {
    const source = { id: 'm1', subject: 'Hi', search_subject: 'hi', search_sender: 'a@b.c', search_recipients: '', search_body: 'body' };
    assert.deepEqual(fromFormat1(source), {
      id: 'm1', subject: 'Hi', search_subject: `hi${END_PADDING}`, search_sender: `a@b.c${END_PADDING}`, search_recipients: END_PADDING, search_body: `body${END_PADDING}`,
    });
  });
});
