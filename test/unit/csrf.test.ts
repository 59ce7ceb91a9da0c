// The CSRF rules of session requests: the token and the Origin, each refusal naming what was wrong.
import { strict as assert } from 'node:assert';
import { changesState, foreignOriginRefusal, sessionCsrfRefusal } from '../../src/http/csrf.js';

const ORIGIN = 'http://127.0.0.1:8025';

describe('csrf', () => {
  it('only methods other than GET and HEAD need the checks', () => {
    assert.deepEqual(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].map(changesState), [false, false, true, true, true]);
  });

  it('needs the session token and this origin', () => {
    assert.equal(sessionCsrfRefusal({ csrfHeader: 'tok', origin: ORIGIN }, 'tok', ORIGIN), null);
    assert.match(sessionCsrfRefusal({ csrfHeader: '', origin: ORIGIN }, 'tok', ORIGIN)!, /X-CSRF-Token header is missing/);
    assert.match(sessionCsrfRefusal({ csrfHeader: 'tok2', origin: ORIGIN }, 'tok', ORIGIN)!, /does not match/);
    assert.match(sessionCsrfRefusal({ csrfHeader: 'to', origin: ORIGIN }, 'tok', ORIGIN)!, /does not match/);
    assert.match(sessionCsrfRefusal({ csrfHeader: 'tok', origin: '' }, 'tok', ORIGIN)!, /Origin header is missing/);
    assert.match(sessionCsrfRefusal({ csrfHeader: 'tok', origin: 'https://evil.example' }, 'tok', ORIGIN)!, /not this service's origin/);
  });

  it('lets credential-free requests without an Origin through, and refuses a foreign one', () => {
    assert.equal(foreignOriginRefusal('', ORIGIN), null);
    assert.equal(foreignOriginRefusal(ORIGIN, ORIGIN), null);
    assert.notEqual(foreignOriginRefusal('null', ORIGIN), null);
    assert.notEqual(foreignOriginRefusal('http://127.0.0.1:8026', ORIGIN), null);
  });
});
