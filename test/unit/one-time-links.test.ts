// Which links the link check skips when asked to spare one-time links: resets, verifications, magic sign-ins,
// invitations, unsubscribes and anything carrying a token, with the reason it gives; ordinary pages are checked.
import { strict as assert } from 'node:assert';
import { oneTimeReason } from '../../src/outbound/one-time-links.js';

describe('oneTimeReason (link check, skip_one_time)', function () {
  it('names the action a path or a query states', function () {
    assert.equal(oneTimeReason('https://app.example/password/reset/4821'), 'its path says reset');
    assert.equal(oneTimeReason('https://app.example/verify-email?u=12'), 'its path says verify');
    assert.equal(oneTimeReason('https://app.example/auth/magic?u=12'), 'its path says magic');
    assert.equal(oneTimeReason('https://lists.example/unsubscribe?list=news'), 'its path says unsubscribe');
    assert.equal(oneTimeReason('https://app.example/a?confirm=1'), 'its query says confirm');
  });

  it('names a secret-carrying parameter or a generated value', function () {
    assert.equal(oneTimeReason('https://app.example/welcome?token=abc'), 'it carries token=');
    assert.equal(oneTimeReason('https://app.example/welcome?reset_password_token=abc'), 'it carries reset_password_token=');
    assert.equal(oneTimeReason('https://app.example/w?s=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5'), 'its s= value looks generated');
    assert.equal(oneTimeReason('https://app.example/l/8f14e45fceea167a5a36dedd4bea2543/go'), 'its path holds a value that looks generated');
  });

  it('leaves ordinary pages, and anything that is not a URL, to be checked', function () {
    for (const link of ['https://shop.example/orders/1234', 'https://docs.example/guide/getting-started?lang=en', 'https://shop.example/p?id=48213&page=2', 'not a url']) {
      assert.equal(oneTimeReason(link), null, link);
    }
  });
});
