// DMARC's pure rules: domain names as they are compared and queried (never a stranger's text or an IP address), the
// one record that applies, what it asks, alignment relaxed and strict, and the SPF record the hint shows.
import { strict as assert } from 'node:assert';
import { alignmentOf, dmarcRecordOf, dmarcRecordText } from '../../../src/domain/dmarc.js';
import { domainName, domainOfAddress } from '../../../src/domain/domain-names.js';
import { spfRecordOf } from '../../../src/domain/spf-hint.js';
import { parseTagList } from '../../../src/domain/tag-list.js';

describe('domain names', () => {
  it('writes a name as it is queried: lower case, A-labels, no trailing dot', () => {
    assert.equal(domainName('Shop.Example.'), 'shop.example');
    assert.equal(domainName('bücher.example'), 'xn--bcher-kva.example');
    assert.equal(domainName('s2024._domainkey.shop.example'), 's2024._domainkey.shop.example');
    assert.equal(domainOfAddress('Orders@Mail.Shop.Example'), 'mail.shop.example');
  });

  it('is null for what is not a domain name, so that no such text is ever looked up', () => {
    for (const written of ['', 'not a domain!', 'a..b', '-a.example', 'a-.example', 'exa mple.com', '1.2.3.4', '0x7f.1', '[::1]', `${'a'.repeat(64)}.example`, `${'a.'.repeat(127)}example`, 'shop.example;x=y']) {
      assert.equal(domainName(written), null, JSON.stringify(written));
    }
    assert.equal(domainOfAddress('no-at-sign'), null);
  });
});

describe('tag lists', () => {
  it('reads tags with their values trimmed, and refuses a repeated tag or a part without a value', () => {
    const parsed = parseTagList(' v=DMARC1 ;p = reject; rua=mailto:a@x.example, mailto:b@x.example ;');
    assert.ok('tags' in parsed);
    assert.deepEqual([...parsed.tags], [['v', 'DMARC1'], ['p', 'reject'], ['rua', 'mailto:a@x.example, mailto:b@x.example']]);
    assert.deepEqual(parseTagList('v=1; d=a.example; d=b.example'), { problem: 'the tag d= appears twice' });
    assert.deepEqual(parseTagList('v=1; garbage'), { problem: '"garbage" is not a tag=value pair' });
    assert.deepEqual(parseTagList('v=1; 9x=1'), { problem: '"9x" is not a tag name' });
  });
});

describe('DMARC records', () => {
  it('takes the one record that starts v=DMARC1, its character strings joined, and none when there are two', () => {
    assert.equal(dmarcRecordText([['v=spf1 -all'], ['v=DMARC1; ', 'p=reject']]), 'v=DMARC1; p=reject');
    assert.equal(dmarcRecordText([['v=DMARC1; p=none'], ['v=DMARC1; p=reject']]), null);
    assert.equal(dmarcRecordText([['v=DMARC10; p=reject']]), null);
    assert.equal(dmarcRecordText([]), null);
  });

  it('reads the policy, the subdomain policy, the DKIM alignment mode and the percentage, with their defaults', () => {
    assert.deepEqual(dmarcRecordOf('v=DMARC1; p=reject'), { text: 'v=DMARC1; p=reject', policy: 'reject', subdomainPolicy: 'reject', dkimAlignment: 'relaxed', percent: 100 });
    assert.deepEqual(dmarcRecordOf('v=DMARC1; p=Quarantine; sp=none; adkim=s; pct=25'), {
      text: 'v=DMARC1; p=Quarantine; sp=none; adkim=s; pct=25', policy: 'quarantine', subdomainPolicy: 'none', dkimAlignment: 'strict', percent: 25,
    });
    assert.equal(dmarcRecordOf('v=DMARC1; p=bogus; rua=mailto:d@x.example')?.policy, 'none', 'an invalid p= with a rua= is p=none (RFC 7489 §6.6.3)');
    assert.equal(dmarcRecordOf('v=DMARC1; pct=200; p=none')?.percent, 100);
    for (const text of ['p=reject; v=DMARC1', 'v=DMARC1; p=bogus', 'v=DMARC2; p=reject', 'v=DMARC1; p=reject; p=none']) assert.equal(dmarcRecordOf(text), null, text);
  });
});

describe('alignment', () => {
  it('is strict for the From domain itself and relaxed for any name under its organizational domain', () => {
    assert.deepEqual(alignmentOf('shop.example', 'shop.example', 'shop.example'), { relaxed: true, strict: true });
    assert.deepEqual(alignmentOf('shop.example', 'mail.shop.example', 'shop.example'), { relaxed: true, strict: false });
    assert.deepEqual(alignmentOf('bounces.shop.example', 'mail.shop.example', 'shop.example'), { relaxed: true, strict: false });
  });

  it('is neither for another organization, a name that only ends alike, or no signing domain', () => {
    for (const signingDomain of ['mailer.example', 'evilshop.example', 'shop.example.evil.example', 'example', null]) {
      assert.deepEqual(alignmentOf(signingDomain, 'shop.example', 'shop.example'), { relaxed: false, strict: false }, String(signingDomain));
    }
  });
});

describe('SPF records for the hint', () => {
  it('finds the one v=spf1 record and its terms, none among other texts, and a permanent error for two', () => {
    assert.deepEqual(spfRecordOf([['google-site-verification=x'], ['v=spf1 ip4:192.0.2.0/24 ', 'include:_spf.mailer.example -all']]), {
      status: 'found', record: 'v=spf1 ip4:192.0.2.0/24 include:_spf.mailer.example -all', terms: ['ip4:192.0.2.0/24', 'include:_spf.mailer.example', '-all'],
    });
    assert.deepEqual(spfRecordOf([['v=spf10 -all'], ['hello']]), { status: 'none' });
    assert.deepEqual(spfRecordOf([['v=spf1 -all'], ['V=SPF1 ~all']]), { status: 'permerror', count: 2 });
  });
});
