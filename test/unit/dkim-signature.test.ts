// A DKIM-Signature's tags read and checked before anything is verified (RFC 6376 §3.5, §6.1.1): each malformed or
// missing tag is a permanent error saying which, d= and s= make a key's name only as domain names; ARC fields' tags;
// and the header section read with each field's byte span, so a copy of the message can leave fields out exactly.
import { strict as assert } from 'node:assert';
import { readArcField, readDkimSignature, splitArcAuthenticationResults } from '../../src/mime/dkim-signature.js';
import { HEADER_SCAN_BYTES, headerSection } from '../../src/mime/header-fields.js';

const GOOD = 'v=1; a=rsa-sha256; c=relaxed/relaxed; d=Shop.Example; s=s2026;\r\n t=1780000000; x=1790000000; l=120;\r\n h=From : To:Subject; i=orders@mail.shop.example;\r\n bh=rb+bVLnBzXrDjK4iCwbkk81PyZ788WI0+/iwHD4j40A=;\r\n b=hQqMdbPk\r\n VwAgINUs==';

const withTag = (tag: string, value: string | null) => {
  const tags = GOOD.replace(/\r\n/g, '').split(';').map((part) => part.trim()).filter((part) => !part.startsWith(`${tag}=`));
  return (value === null ? tags : [...tags, `${tag}=${value}`]).join('; ');
};

describe('readDkimSignature', () => {
  it('reads a well-formed signature\'s tags, b= without its white space, and its key\'s name', () => {
    assert.deepEqual(readDkimSignature(GOOD.replace(/\r\n/g, '')), {
      domain: 'Shop.Example', selector: 's2026', algorithm: 'rsa-sha256', canonicalization: 'relaxed/relaxed', identity: 'orders@mail.shop.example',
      signedHeaders: ['from', 'to', 'subject'], bodyLength: 120, signedAt: 1780000000, expiresAt: 1790000000,
      signature: 'hQqMdbPkVwAgINUs==', keyName: 's2026._domainkey.shop.example', problem: null,
    });
  });

  it('names the first thing wrong with a signature that cannot be verified', () => {
    const cases: [string, string][] = [
      [withTag('v', null), 'the required tag v= is missing or empty'],
      [withTag('b', ''), 'the required tag b= is missing or empty'],
      [withTag('v', '2'), 'v=2 is not version 1'],
      [withTag('a', 'rsa-md5'), 'a=rsa-md5 is not a DKIM algorithm (rsa-sha256, ed25519-sha256, rsa-sha1)'],
      [withTag('b', 'not*base64!'), 'b= is not base64'],
      [withTag('bh', '%%%'), 'bh= is not base64'],
      [withTag('c', 'loose/relaxed'), 'c=loose/relaxed is not a canonicalization (simple or relaxed, for the header and the body)'],
      [withTag('d', 'not a domain!'), 'd=not a domain! is not a domain name'],
      [withTag('d', '192.0.2.1'), 'd=192.0.2.1 is not a domain name'],
      [withTag('s', 'no selector'), 's=no selector is not a selector (dot-separated labels)'],
      [withTag('h', 'To:Subject'), 'h= does not include From, which every signature must cover'],
      [withTag('i', 'orders@elsewhere.example'), 'i=orders@elsewhere.example is not an identity in d=shop.example'],
      [withTag('l', 'lots'), 'l=lots is not a number'],
      [withTag('q', 'https'), 'q=https names no query method but dns/txt'],
      [withTag('x', '1700000000'), 'x= (its expiry) is before t= (when it was signed)'],
      [`${GOOD}; d=other.example`, 'its tags cannot be read: the tag d= appears twice'],
      ['garbage without tags', 'its tags cannot be read: "garbage without tags" is not a tag=value pair'],
    ];
    for (const [value, problem] of cases) assert.equal(readDkimSignature(value).problem, problem, value);
  });

  it('makes no key name of a d= or s= that is not a domain name', () => {
    assert.equal(readDkimSignature(withTag('d', 'shop.example; evil')).keyName, null);
    assert.equal(readDkimSignature(withTag('s', '../etc')).keyName, null);
    assert.equal(readDkimSignature(withTag('d', 'bücher.example')).keyName, 's2026._domainkey.xn--bcher-kva.example');
  });
});

describe('ARC fields', () => {
  it('reads an ARC-Seal\'s instance, key and cv=, and splits an ARC-Authentication-Results\' instance off', () => {
    assert.deepEqual(readArcField('i=2; a=rsa-sha256; t=1; cv=pass; d=relay.example; s=arc1; b=AAAA'), {
      instance: 2, domain: 'relay.example', selector: 'arc1', chainValidation: 'pass', keyName: 'arc1._domainkey.relay.example',
    });
    assert.deepEqual(readArcField('i=x; d=relay.example'), { instance: null, domain: 'relay.example', selector: null, chainValidation: null, keyName: null });
    assert.deepEqual(splitArcAuthenticationResults('i=1; mx.relay.example; dkim=pass'), { instance: 1, results: ' mx.relay.example; dkim=pass' });
    assert.equal(splitArcAuthenticationResults('mx.relay.example; dkim=pass').instance, null);
  });
});

describe('headerSection', () => {
  it('gives each field, folded or not, its unfolded value and its exact byte span, and where the body starts', () => {
    const raw = Buffer.from('DKIM-Signature: v=1;\r\n\td=a.example\r\nSubject: Grüße\r\nnot a field\r\nTo: b@x.example\r\n\r\nbody\r\n');
    const { fields, bodyStart } = headerSection(raw);
    assert.deepEqual(fields.map(({ name, value }) => [name, value]), [['dkim-signature', ' v=1;\td=a.example'], ['subject', ' Grüße'], ['', 'not a field'], ['to', ' b@x.example']]);
    assert.equal(fields.map((field) => raw.subarray(field.start, field.end).toString()).join(''), raw.subarray(0, bodyStart!).toString().replace(/\r\n$/, ''));
    assert.equal(raw.subarray(bodyStart!).toString(), 'body\r\n');
    assert.equal(raw.subarray(fields[1]!.start, fields[1]!.end).toString(), 'Subject: Grüße\r\n', 'spans count bytes, not characters');
  });

  it('reads a message that is all header, and gives no body start when the section does not end within the scan', () => {
    assert.equal(headerSection(Buffer.from('Subject: only\r\n')).bodyStart, 15);
    const endless = Buffer.from(`X-Long: ${'a'.repeat(HEADER_SCAN_BYTES)}\r\n\r\nbody`);
    assert.equal(headerSection(endless).bodyStart, null);
  });
});
