// How the noisy-neighbour bench names the server's answers: by status and stable code, never by the varying text, so counts group.
import { strict as assert } from 'node:assert';
import { AnswerCounts, httpAnswer, noAnswer, smtpAnswer } from '../../scripts/bench/answers.js';

describe('noisy-neighbour bench answers', () => {
  it('names an SMTP reply by its code and enhanced code', () => {
    assert.equal(smtpAnswer('451 4.3.2 this workspace has 64 messages in transfer already'), 'SMTP 451 4.3.2');
    assert.equal(smtpAnswer('250 2.6.0 Message stored as msg_abc'), 'SMTP 250 2.6.0');
    assert.equal(smtpAnswer('220 sandbox ESMTP'), 'SMTP 220');
    assert.equal(smtpAnswer('garbage'), 'SMTP unparsed: garbage');
  });

  it('names an HTTP failure by its status and the envelope code, a success by its status', () => {
    assert.equal(httpAnswer(503, '{"success":false,"error":{"code":"too_many_connections","message":"x"}}'), 'HTTP 503 too_many_connections');
    assert.equal(httpAnswer(400, 'HTTP/1.1 400 Bad Request\r\n\r\n{"success":false,"error":{"code":"invalid_query"}}'), 'HTTP 400 invalid_query');
    assert.equal(httpAnswer(500, 'Internal Server Error'), 'HTTP 500');
    assert.equal(httpAnswer(200, '{"code":"ignored"}'), 'HTTP 200');
  });

  it('names a request without an answer by its network code, an SMTP client error by the reply it carries', () => {
    assert.equal(noAnswer(new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })), 'no answer: ECONNRESET');
    assert.equal(noAnswer(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), 'no answer: TimeoutError');
    assert.equal(noAnswer(new Error('the server closed the connection')), 'no answer: the server closed the connection');
    assert.equal(noAnswer(Object.assign(new Error('Message failed'), { responseCode: 451, response: '451 4.3.2 busy' })), 'SMTP 451 4.3.2');
  });

  it('counts answers and prints them sorted by name', () => {
    const counts = new AnswerCounts();
    counts.add('SMTP 451 4.3.2');
    counts.add('HTTP 200', 3);
    counts.add('SMTP 451 4.3.2');
    assert.deepEqual(Object.entries(counts.sorted()), [['HTTP 200', 3], ['SMTP 451 4.3.2', 2]]);
  });
});
