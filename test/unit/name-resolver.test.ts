// Outbound name lookups against a name server of the test's own: A and AAAA through c-ares with a timeout and tries,
// TXT records (a key longer than one character string joined back whole), localhost without a query, the gate's share per workspace and its refusals, abandoned lookups freeing their slots,
// and the target policy built on them: the port rule, refusals that never name a resolved address, one lookup per
// request and a connection only to the address checked.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOKUP_REFUSED, NameLookupError, NameResolver } from '../../src/outbound/name-resolver.js';
import { resolveTarget, targetRefusal, urlRefusal } from '../../src/outbound/target-policy.js';
import { publicFetch, PublicFetchError } from '../../src/outbound/public-fetch.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { testNames } from '../support/names.js';

const NAMES = {
  'site.test': ['127.0.0.2'],
  'two.test': ['127.0.0.2', '127.0.0.3'],
  'inside.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '192.168.7.7'],
};

const isLookupError = (code: string) => (error: unknown) => error instanceof NameLookupError && error.code === code;

/** Settles with how the promise ended, so a test can look at a lookup it does not await yet. */
function watch<T>(promise: Promise<T>): { settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(() => (state.settled = true), () => (state.settled = true));
  return state;
}

/** A DKIM key's length: more than one 255-byte character string. */
const LONG_TEXT = `v=DKIM1; k=rsa; p=${'A'.repeat(400)}`;
const TEXTS = {
  'sel._domainkey.site.test': [LONG_TEXT],
  'site.test': ['v=spf1 -all', 'another record'],
};

describe('NameResolver', function () {
  this.timeout(20_000);
  let dns: TestDnsServer;
  before(async () => {
    dns = await startDnsServer(NAMES, '.blackhole.test', TEXTS);
  });
  after(() => dns.close());

  const questionsAbout = (name: string) => dns.questions.filter((question) => question.name === name);

  it('resolves A records through the given name server, and AAAA records that are not there do not fail the name', async () => {
    const names = testNames([dns.address]);
    assert.deepEqual(await names.resolve('two.test', 'ws_a'), [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.3', family: 4 }]);
    assert.deepEqual(questionsAbout('two.test').map((question) => question.type).sort(), [1, 28], 'one A and one AAAA question');
  });

  it('says a name does not exist, and that a name server never answered within its tries', async () => {
    const names = testNames([dns.address]);
    await assert.rejects(names.resolve('nowhere.test', 'ws_a'), (error: unknown) => isLookupError('ENOTFOUND')(error) && (error as Error).message === 'the name nowhere.test does not exist');
    const tried = new NameResolver({ servers: [dns.address], timeoutMs: 200, tries: 2, gate: { concurrency: 1, queueLimit: 1, perKeyLimit: 1 } });
    await assert.rejects(tried.resolve('silent.blackhole.test', 'ws_a'), (error: unknown) =>
      isLookupError('ETIMEOUT')(error) && (error as Error).message === 'the name silent.blackhole.test got no answer from the name server in time');
    assert.ok(questionsAbout('silent.blackhole.test').some((question) => question.type === 1), 'the A question was asked');
  });

  it('reads TXT records in the workspace\'s turn, and says which names have none or do not exist', async () => {
    const names = testNames([dns.address]);
    const [key] = await names.texts('sel._domainkey.site.test', 'ws_a');
    assert.equal(key!.join(''), LONG_TEXT, 'the character strings of one record join back into the text');
    assert.ok(key!.length > 1, 'a text over 255 bytes comes in more than one character string');
    assert.deepEqual((await names.texts('site.test', 'ws_a')).map((strings) => strings.join('')).sort(), ['another record', 'v=spf1 -all']);
    await assert.rejects(names.texts('two.test', 'ws_a'), (error: unknown) => isLookupError('ENODATA')(error) && (error as Error).message === 'the name two.test has no TXT record');
    await assert.rejects(names.texts('_dmarc.nowhere.test', 'ws_a'), (error: unknown) => isLookupError('ENOTFOUND')(error) && (error as Error).message === 'the name _dmarc.nowhere.test does not exist');
    await assert.rejects(names.texts('key.blackhole.test', 'ws_a'), (error: unknown) => isLookupError('ETIMEOUT')(error)
      && (error as Error).message === 'the name key.blackhole.test got no answer from the name server in time');
    const before = dns.questions.length;
    await assert.rejects(names.texts('sel._domainkey.app.localhost', 'ws_a'), isLookupError('ENOTFOUND'));
    assert.equal(dns.questions.length, before, 'a name under localhost is not asked about');
  });

  it('answers localhost and names under it with loopback, without asking the name server', async () => {
    const names = testNames([dns.address]);
    const before = dns.questions.length;
    for (const name of ['localhost', 'LOCALHOST', 'app.localhost', 'localhost.']) {
      assert.deepEqual(await names.resolve(name, 'ws_a'), [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }], name);
    }
    assert.equal(dns.questions.length, before);
  });

  it("refuses a workspace's lookups past its share at once, while another workspace's resolve beside them", async () => {
    const names = testNames([dns.address], { concurrency: 4, queueLimit: 4, perKeyLimit: 3 });
    const attacker = Array.from({ length: 3 }, (_, n) => watch(names.resolve(`a${n}.blackhole.test`, 'ws_attacker')));
    await assert.rejects(names.resolve('a3.blackhole.test', 'ws_attacker'), (error: unknown) => isLookupError(LOOKUP_REFUSED)(error)
      && (error as Error).message === 'the lookup of a3.blackhole.test was refused: this workspace has as many name lookups in flight or waiting as it may (3); try again shortly');
    assert.equal(questionsAbout('a3.blackhole.test').length, 0, 'the refused lookup asked nothing');

    assert.deepEqual(await names.resolve('site.test', 'ws_neighbour'), [{ address: '127.0.0.2', family: 4 }]);
    assert.ok(attacker.every((lookup) => !lookup.settled), "the neighbour's lookup finished while the attacker's were still unanswered");
    for (const lookup of attacker) await assert.rejects(lookup.promise, isLookupError('ETIMEOUT'));
  });

  it('refuses any workspace once every slot is busy and the queue is full', async () => {
    const names = testNames([dns.address], { concurrency: 1, queueLimit: 1, perKeyLimit: 5 });
    const held = [watch(names.resolve('q0.blackhole.test', 'ws_one')), watch(names.resolve('q1.blackhole.test', 'ws_two'))];
    await assert.rejects(names.resolve('site.test', 'ws_three'), (error: unknown) => isLookupError(LOOKUP_REFUSED)(error)
      && (error as Error).message === 'the lookup of site.test was refused: the queue of name lookups is full (1 waiting); try again shortly');
    for (const lookup of held) await assert.rejects(lookup.promise, isLookupError('ETIMEOUT'));
  });

  it('frees the slots of abandoned lookups, running and waiting, so the workspace may look up again', async () => {
    const slow = new NameResolver({ servers: [dns.address], timeoutMs: 5000, tries: 3, gate: { concurrency: 1, queueLimit: 4, perKeyLimit: 2 } });
    const abandon = new AbortController();
    const lookups = [slow.resolve('c0.blackhole.test', 'ws_a', abandon.signal), slow.resolve('c1.blackhole.test', 'ws_a', abandon.signal)];
    await assert.rejects(slow.resolve('c2.blackhole.test', 'ws_a'), isLookupError(LOOKUP_REFUSED));
    abandon.abort();
    for (const lookup of lookups) await assert.rejects(lookup, isLookupError('ECANCELLED'));
    assert.deepEqual(slow.stats(), { running: 0, waiting: 0 });
    assert.equal(questionsAbout('c1.blackhole.test').length, 0, 'the waiting lookup never asked');
    assert.deepEqual(await slow.resolve('site.test', 'ws_a'), [{ address: '127.0.0.2', family: 4 }]);
  });
});

describe('target policy on c-ares lookups', function () {
  this.timeout(20_000);
  let dns: TestDnsServer;
  let names: NameResolver;
  before(async () => {
    dns = await startDnsServer(NAMES);
    names = testNames([dns.address]);
  });
  after(() => dns.close());

  it('requests only the ports given, 80 and 443 being the schemes\' own, with a stable refusal', () => {
    const ports = [[80, 80], [443, 443], [8000, 8999]] as const;
    for (const url of ['http://example.com/', 'https://example.com/', 'http://example.com:80/', 'https://example.com:443/', 'http://example.com:8080/', 'https://example.com:8999/']) {
      assert.ok('url' in urlRefusal(url, { allowPrivate: false, allowPlainHttp: true, ports }), url);
    }
    for (const [url, port] of [['http://example.com:22/', 22], ['https://example.com:6379/', 6379], ['http://example.com:7999/', 7999], ['https://example.com:9000/', 9000]] as const) {
      assert.deepEqual(urlRefusal(url, { allowPrivate: true, allowPlainHttp: true, ports }), { refusal: `port ${port} is not checked (only ports 80, 443 and 8000-8999 are)` }, url);
    }
    assert.ok('url' in urlRefusal('https://example.com:6379/', { allowPrivate: false }), 'no port rule where the policy has none (webhooks)');
  });

  it('refuses a name with any non-public address without saying which address', async () => {
    for (const host of ['inside.test', 'mixed.test']) {
      const refused = await targetRefusal(`https://${host}/hook`, { allowPrivate: false, names }, 'ws_a');
      assert.deepEqual(refused, { refusal: `the name ${host} resolves to a non-public address` });
      await assert.rejects(resolveTarget(new URL(`https://${host}/`), { allowPrivate: false, names }, 'ws_a'), (error: Error) =>
        error.message === `the name ${host} resolves to a non-public address` && !/\d+\.\d+\.\d+\.\d+/.test(error.message));
    }
    assert.deepEqual(await targetRefusal('https://nowhere.test/hook', { allowPrivate: false, names }, 'ws_a'), { refusal: 'the name nowhere.test does not exist' });
  });

  describe('a request to a name', () => {
    let server: http.Server;
    let port: number;
    const peers: string[] = [];
    before(async () => {
      server = http.createServer((request, response) => {
        peers.push(request.socket.localAddress ?? '');
        response.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('looks the name up once and connects to the address it checked', async () => {
      const before = dns.questions.length;
      const answer = await publicFetch(`http://site.test:${port}/`, { method: 'GET', policy: { allowPrivate: true, names }, workspaceId: 'ws_a', timeoutMs: 2000, maxBodyBytes: 100 });
      assert.equal(answer.body.toString(), 'ok');
      assert.deepEqual(dns.questions.slice(before).map((question) => `${question.name} ${question.type}`).sort(), ['site.test 1', 'site.test 28']);
      assert.deepEqual(peers, ['127.0.0.2']);
    });

    it('counts the lookup in its time limit and reports a refused lookup as busy, without connecting', async () => {
      const slow = new NameResolver({ servers: [dns.address], timeoutMs: 5000, tries: 3, gate: { concurrency: 4, queueLimit: 4, perKeyLimit: 1 } });
      const policy = { allowPrivate: true, names: slow };
      const hanging = publicFetch(`http://t.blackhole.test:${port}/`, { method: 'HEAD', policy, workspaceId: 'ws_a', timeoutMs: 300, maxBodyBytes: 0 });
      await assert.rejects(publicFetch(`http://site.test:${port}/`, { method: 'HEAD', policy, workspaceId: 'ws_a', timeoutMs: 2000, maxBodyBytes: 0 }), (error: unknown) =>
        error instanceof PublicFetchError && error.reason === 'busy' && /^the lookup of site\.test was refused: this workspace has as many name lookups in flight or waiting as it may \(1\)/.test(error.message));
      await assert.rejects(hanging, (error: unknown) => error instanceof PublicFetchError && error.reason === 'timeout' && error.message === 'no answer within 0.3 s');
      assert.deepEqual(slow.stats(), { running: 0, waiting: 0 }, 'the timed-out lookup gave its slot back');
      assert.equal(peers.length, 1, 'only the earlier request connected');
    });
  });
});
