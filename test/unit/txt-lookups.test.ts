// The TXT lookups of one authentication check: each name once, a few at a time, at most a set number of names (the
// rest answered as not looked up, with no query), names that are not domain names never asked, and every lookup ended
// by the check's deadline, whatever its name server does.
import { strict as assert } from 'node:assert';
import { NOT_LOOKED_UP } from '../../src/domain/auth-check.js';
import { NameLookupError, NameResolver } from '../../src/outbound/name-resolver.js';
import { TxtLookups } from '../../src/outbound/txt-lookups.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';

/** A resolver that answers every name after `delayMs`, counting the lookups in flight. */
function countingResolver(delayMs: number) {
  const state = { asked: [] as string[], inFlight: 0, mostInFlight: 0 };
  const names = {
    async texts(name: string): Promise<string[][]> {
      state.asked.push(name);
      state.mostInFlight = Math.max(state.mostInFlight, ++state.inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      state.inFlight--;
      if (name.startsWith('none.')) throw new NameLookupError('ENOTFOUND', `the name ${name} does not exist`);
      return [[`text of ${name}`]];
    },
  };
  return { names, state };
}

describe('TxtLookups', function () {
  this.timeout(20_000);

  it('looks each name up once, a few at a time, and keeps failures as answers', async () => {
    const { names, state } = countingResolver(20);
    const lookups = new TxtLookups(names, 'ws_a', { names: 24, atOnce: 4, deadlineMs: 5000 }, new AbortController().signal);
    await lookups.add(['a.example', 'b.example', 'a.example', 'none.example', ...Array.from({ length: 6 }, (_, n) => `k${n}.example`)]);
    await lookups.add(['a.example', 'c.example']);
    assert.deepEqual(state.asked.filter((name) => name === 'a.example'), ['a.example']);
    assert.equal(lookups.count, 10);
    assert.equal(state.mostInFlight, 4);
    assert.deepEqual(lookups.answers.get('a.example'), { records: [['text of a.example']] });
    assert.deepEqual(lookups.answers.get('none.example'), { code: 'ENOTFOUND', reason: 'the name none.example does not exist' });
  });

  it('looks up no more than its limit of names, and never a name that is not a domain name', async () => {
    const { names, state } = countingResolver(1);
    const lookups = new TxtLookups(names, 'ws_a', { names: 3, atOnce: 4, deadlineMs: 5000 }, new AbortController().signal);
    await lookups.add(['s1.example', 'not a domain!', 'S2.Example', 's2.example', 's3.example', 's4.example']);
    assert.deepEqual(state.asked, ['s1.example', 's2.example', 's3.example']);
    assert.deepEqual(lookups.answers.get('s4.example'), { code: NOT_LOOKED_UP, reason: 's4.example was not looked up: a check looks up at most 3 names' });
    assert.deepEqual(lookups.answers.get('not a domain!'), { code: 'EBADNAME', reason: 'not a domain! is not a domain name' });
    assert.deepEqual(lookups.answers.get('S2.Example'), { code: 'EBADNAME', reason: 'S2.Example is not a domain name' }, 'names come as domainName writes them');
  });

  describe('against a name server that never answers', () => {
    let dns: TestDnsServer;
    before(async () => {
      dns = await startDnsServer({});
    });
    after(() => dns.close());

    it('ends every lookup at the check\'s deadline, shorter than the lookups\' own limit, and says so', async () => {
      const patient = new NameResolver({ servers: [dns.address], timeoutMs: 5000, tries: 2, gate: { concurrency: 8, queueLimit: 8, perKeyLimit: 8 } });
      const lookups = new TxtLookups(patient, 'ws_a', { names: 24, atOnce: 4, deadlineMs: 300 }, new AbortController().signal);
      await lookups.add(['k1._domainkey.slow.blackhole.test', '_dmarc.slow.blackhole.test']);
      assert.deepEqual(lookups.answers.get('_dmarc.slow.blackhole.test'), {
        code: 'ETIMEOUT', reason: 'the name _dmarc.slow.blackhole.test got no answer within the check\'s 0.3 s for lookups',
      });
      assert.deepEqual(patient.stats(), { running: 0, waiting: 0 }, 'the abandoned lookups gave their places back');
    });
  });
});
