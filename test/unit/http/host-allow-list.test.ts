// The Host allow-list: which names a loopback-bound server answers, which a wider bind answers, and the refusals.
import { strict as assert } from 'node:assert';
import { hostCheck, type HostPolicy } from '../../../src/http/host-allow-list.js';

const policy = (overrides: Partial<HostPolicy> = {}): HostPolicy => ({ bind: '127.0.0.1', publicUrl: null, allowedHosts: [], ...overrides });

/** The code the check answers the Host with, or 'answered'. */
function outcome(check: ReturnType<typeof hostCheck>, host: string): string {
  assert.ok(check, 'an allow-list applies');
  return check(host)?.code ?? 'answered';
}

describe('hostCheck', () => {
  it('a loopback bind answers loopback names and addresses, with any port, and nothing else', () => {
    const check = hostCheck(policy());
    for (const host of ['localhost', 'localhost:8025', 'LOCALHOST:1', 'app.localhost:8025', '127.0.0.1', '127.0.0.1:8025', '127.9.8.7:80', '[::1]', '[::1]:8025', '[::ffff:127.0.0.1]:8025']) {
      assert.equal(outcome(check, host), 'answered', host);
    }
    for (const host of ['evil.example', 'evil.example:8025', 'localhost.evil.example', '10.0.0.5:8025', '[fe80::1]:8025', '2130706433', '0x7f.1']) {
      assert.equal(outcome(check, host), 'host_not_allowed', host);
    }
  });

  it('names the refused Host and the way to allow it', () => {
    const refusal = hostCheck(policy())!('evil.example:8025');
    assert.equal(refusal?.httpStatus, 421);
    assert.match(refusal?.message ?? '', /'evil\.example:8025'.*SANDBOX_ALLOWED_HOSTS/);
  });

  it('answers SANDBOX_PUBLIC_URL\'s host and SANDBOX_ALLOWED_HOSTS, exact or every subdomain of a *. name', () => {
    const check = hostCheck(policy({ publicUrl: 'https://Sandbox.Example.com/mail', allowedHosts: ['mail.internal', '*.corp.example', '::2'] }));
    for (const host of ['sandbox.example.com', 'SANDBOX.example.com:443', 'mail.internal:8025', 'a.corp.example', 'b.a.corp.example:8025', '[::2]:8025']) {
      assert.equal(outcome(check, host), 'answered', host);
    }
    for (const host of ['example.com', 'corp.example', 'xcorp.example', 'mail.internal.evil.example']) assert.equal(outcome(check, host), 'host_not_allowed', host);
  });

  it('a malformed Host is a bad request, not a misdirected one', () => {
    const check = hostCheck(policy());
    for (const host of ['', 'x y', 'localhost:port', 'user@localhost', '[::1']) assert.equal(outcome(check, host), 'invalid_request', JSON.stringify(host));
  });

  it('a wider bind answers any Host until names are configured, then those, loopback names and IP addresses', () => {
    assert.equal(hostCheck(policy({ bind: '0.0.0.0' })), null);
    assert.equal(hostCheck(policy({ bind: '::' })), null);
    const check = hostCheck(policy({ bind: '0.0.0.0', publicUrl: 'https://sandbox.example.com' }));
    for (const host of ['sandbox.example.com', 'localhost:8025', '10.0.0.5:8025', '[fe80::1]:8025', '127.0.0.1:8025']) assert.equal(outcome(check, host), 'answered', host);
    assert.equal(outcome(check, 'evil.example'), 'host_not_allowed');
    assert.equal(outcome(hostCheck(policy({ bind: '192.168.1.10', allowedHosts: ['sandbox'] })), 'sandbox:8025'), 'answered');
  });
});
