// The key exact-address search compares: every spelling of one mailbox keys alike, every other mailbox differently.
import { strict as assert } from 'node:assert';
import { mailboxKey, mailboxKeys, mailboxText, MAX_ADDRESS_LENGTH, MAX_KEYS_PER_FIELD, unitedKeys, whyNoKey } from '../../../src/domain/mailbox-key.js';

const same = (spellings: string[]) => {
  const keys = spellings.map(mailboxKey);
  assert.ok(keys[0] !== null, `${spellings[0]} has no key`);
  for (const [index, key] of keys.entries()) assert.equal(key, keys[0], `${spellings[index]} keys as ${key}, ${spellings[0]} as ${keys[0]}`);
};

describe('mailboxKey', () => {
  it('compares the domain case-insensitively and, by its choice as the receiving host, the local part too', () => {
    same(['alice@example.test', 'Alice@Example.TEST', 'ALICE@EXAMPLE.TEST']);
    assert.equal(mailboxKey('Alice@Example.TEST'), 'alice@example.test');
  });

  it('never takes another mailbox for it: a longer local part, another domain, a sub-address, a dot', () => {
    const key = mailboxKey('alice@x.test');
    for (const other of ['ba@x.test', 'malice@x.test', 'alice@x.test.evil', 'alice@sub.x.test', 'alice@xtest', 'alice+tag@x.test', 'a.lice@x.test', 'alice.@x.test']) {
      assert.notEqual(mailboxKey(other), key, other);
    }
  });

  it('reads a quoted local part by its content: the quotes of a dot-atom change nothing, a space or an @ stays', () => {
    same(['"john.smith"@example.test', 'john.smith@example.test', '"John.Smith"@EXAMPLE.test', '"john\\.smith"@example.test']);
    assert.equal(mailboxKey('"john smith"@example.test'), 'john smith@example.test');
    assert.notEqual(mailboxKey('"john smith"@example.test'), mailboxKey('johnsmith@example.test'));
    assert.equal(mailboxKey('"a@b"@example.test'), 'a@b@example.test', 'the domain is what follows the closing quote');
    assert.notEqual(mailboxKey('"a@b"@example.test'), mailboxKey('a@b.example.test'));
    assert.equal(mailboxKey('"a\\"b"@x.test'), 'a"b@x.test', 'a quoted pair is the character it quotes');
  });

  it('takes an internationalised domain and its punycode for one domain, and compares UTF-8 local parts in NFC and lower case', () => {
    same(['δοκιμή@παράδειγμα.δοκιμή', 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp', 'ΔΟΚΙΜΉ@XN--HXAJBHEG2AZ3AL.xn--jxalpdlp']);
    same(['zoë@bücher.example', 'zoe\u0308@xn--bcher-kva.example', 'ZOË@BÜCHER.example']);
    assert.equal(mailboxKey('δοκιμή@παράδειγμα.δοκιμή'), 'δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp');
  });

  it('keeps a mixed-script homograph apart from the name it imitates, in the local part and in the domain', () => {
    assert.notEqual(mailboxKey('\u0430lice@example.test'), mailboxKey('alice@example.test'), 'Cyrillic а');
    assert.notEqual(mailboxKey('alice@ex\u0430mple.test'), mailboxKey('alice@example.test'));
    assert.equal(mailboxKey('alice@ex\u0430mple.test'), 'alice@xn--exmple-4nf.test');
  });

  it('gives no key to what is not an address, holds a control character or is past the length limit, and says why', () => {
    for (const notOne of ['', 'alice', '@x.test', 'alice@', '"unclosed@x.test', '"q"x@y.test', 'a@b@', 'alice@exa mple.test']) {
      assert.equal(mailboxKey(notOne), null, notOne);
      assert.match(whyNoKey(notOne)!, /not an address/);
    }
    assert.equal(mailboxKey('a\u0000b@x.test'), null);
    assert.match(whyNoKey('a\u0000b@x.test')!, /control character/);
    assert.equal(mailboxKey(`${'a'.repeat(2000)}@x.test`), null);
    assert.match(whyNoKey(`${'a'.repeat(2000)}@x.test`)!, new RegExp(`longer than ${MAX_ADDRESS_LENGTH}`));
    assert.ok(mailboxKey(`${'a'.repeat(MAX_ADDRESS_LENGTH - 7)}@x.test`));
    assert.equal(whyNoKey('alice@x.test'), null);
  });

  it('reads an ASCII domain by its letters alone, not as IDNA would read a number', () => {
    assert.equal(mailboxKey('a@0x7f.1'), 'a@0x7f.1');
    assert.notEqual(mailboxKey('a@0x7f.1'), mailboxKey('a@127.0.0.1'));
    assert.equal(mailboxKey('a@[IPv6:2001:DB8::1]'), 'a@[ipv6:2001:db8::1]');
  });
});

describe('mailboxKeys and mailboxText', () => {
  it('keys a list once per mailbox, sorted, without what has no key, and at most MAX_KEYS_PER_FIELD', () => {
    assert.deepEqual(mailboxKeys(['B@x.test', 'a@x.test', 'b@X.TEST', 'nobody']), ['a@x.test', 'b@x.test']);
    const many = Array.from({ length: MAX_KEYS_PER_FIELD + 10 }, (_, i) => `u${i}@x.test`);
    assert.equal(mailboxKeys(many).length, MAX_KEYS_PER_FIELD);
    assert.ok(!mailboxKeys(many).includes(`u${MAX_KEYS_PER_FIELD}@x.test`), 'the first ones are kept');
    assert.deepEqual(unitedKeys(['b@x.test'], ['a@x.test', 'b@x.test']), ['a@x.test', 'b@x.test']);
  });

  it('writes a key back as an address that keys to itself, quoted where it must be, the domain in Unicode', () => {
    for (const address of ['alice@example.test', '"john smith"@example.test', '"a@b"@x.test', '"a\\"b"@x.test', '"(x)"@x.test', 'δοκιμή@παράδειγμα.δοκιμή', 'a@[ipv6:2001:db8::1]']) {
      const key = mailboxKey(address)!;
      assert.equal(mailboxKey(mailboxText(key)), key, `${address} → ${mailboxText(key)}`);
    }
    assert.equal(mailboxText(mailboxKey('"John Smith"@Example.test')!), '"john smith"@example.test');
    assert.equal(mailboxText(mailboxKey('δοκιμή@xn--hxajbheg2az3al.xn--jxalpdlp')!), 'δοκιμή@παράδειγμα.δοκιμή');
    assert.equal(mailboxText(mailboxKey('"john.smith"@x.test')!), 'john.smith@x.test');
  });
});
