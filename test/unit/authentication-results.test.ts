// Authentication-Results fields (RFC 8601) read into the check's shape: the authserv-id, each method's result, reason,
// comment and properties, `none`, quoting and nested comments, values with `=` in them, and a stranger's field of
// thousands of results or property names such as __proto__ read as plain data, cut at the limits.
import { strict as assert } from 'node:assert';
import { parseAuthenticationResults } from '../../src/mime/authentication-results.js';

describe('parseAuthenticationResults', () => {
  it('reads a receiver\'s field: authserv-id, then each method with its comment and properties', () => {
    const text = 'mx.google.com; dkim=pass header.i=@shop.example header.s=s2026 header.b=AbCd12==; '
      + 'spf=pass (google.com: domain of bounce@shop.example designates 192.0.2.7 as permitted sender) smtp.mailfrom=bounce@shop.example; '
      + 'dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=shop.example';
    assert.deepEqual(parseAuthenticationResults(text), {
      AuthServId: 'mx.google.com',
      Results: [
        { Method: 'dkim', Result: 'pass', Reason: null, Comment: null, Properties: [
          { Type: 'header', Name: 'i', Value: '@shop.example' }, { Type: 'header', Name: 's', Value: 's2026' }, { Type: 'header', Name: 'b', Value: 'AbCd12==' }] },
        { Method: 'spf', Result: 'pass', Reason: null, Comment: 'google.com: domain of bounce@shop.example designates 192.0.2.7 as permitted sender',
          Properties: [{ Type: 'smtp', Name: 'mailfrom', Value: 'bounce@shop.example' }] },
        { Method: 'dmarc', Result: 'pass', Reason: null, Comment: 'p=REJECT sp=REJECT dis=NONE', Properties: [{ Type: 'header', Name: 'from', Value: 'shop.example' }] },
      ],
      Text: text,
    });
  });

  it('reads a version after the authserv-id, method versions, quoted reasons, nested comments and letter case', () => {
    const field = parseAuthenticationResults(' example.org 1; DKIM/1=FAIL reason="signature (b=) did not verify" (bad (really) bad) header.d=Shop.Example ');
    assert.equal(field.AuthServId, 'example.org');
    assert.deepEqual(field.Results, [{ Method: 'dkim', Result: 'fail', Reason: 'signature (b=) did not verify', Comment: 'bad (really) bad', Properties: [{ Type: 'header', Name: 'd', Value: 'Shop.Example' }] }]);
    assert.equal(field.Text, 'example.org 1; DKIM/1=FAIL reason="signature (b=) did not verify" (bad (really) bad) header.d=Shop.Example');
  });

  it('reads `none` as no results, and keeps the parts it can read of a garbled field', () => {
    assert.deepEqual(parseAuthenticationResults('mx.example; none').Results, []);
    const garbled = parseAuthenticationResults('mx.example; =pass; dkim; spf=neutral smtp.mailfrom; arc=none (unclosed');
    assert.deepEqual(garbled.Results.map(({ Method, Result, Comment, Properties }) => ({ Method, Result, Comment, Properties })), [
      { Method: 'spf', Result: 'neutral', Comment: null, Properties: [] },
      { Method: 'arc', Result: 'none', Comment: 'unclosed', Properties: [] },
    ]);
    assert.deepEqual(parseAuthenticationResults(''), { AuthServId: null, Results: [], Text: '' });
  });

  it('reads a hostile field as data within its limits: 50 results, 100 properties, 1,000 characters a string', () => {
    const many = parseAuthenticationResults(`mx.example; ${Array.from({ length: 3000 }, (_, n) => `dkim=pass header.d=d${n}.example`).join('; ')}`);
    assert.equal(many.Results.length, 50);
    assert.equal(many.Text.length, 1000);
    const props = parseAuthenticationResults(`mx.example; dkim=pass ${Array.from({ length: 500 }, (_, n) => `header.p${n}=v`).join(' ')} __proto__.polluted=yes constructor.x=1`);
    assert.equal(props.Results[0]!.Properties.length, 100);
    const tricky = parseAuthenticationResults('mx.example; dkim=pass __proto__.polluted=yes');
    assert.deepEqual(tricky.Results[0]!.Properties, [{ Type: '__proto__', Name: 'polluted', Value: 'yes' }]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no object took the name as a key');
    const long = parseAuthenticationResults(`mx.example; dkim=pass header.d=${'x'.repeat(5000)}`);
    assert.equal(long.Results[0]!.Properties[0]!.Value.length, 1000);
  });
});
