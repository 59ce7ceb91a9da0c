// Captures in transfer: the caps on transactions and held bytes, per workspace and overall, their release, and the
// rate a workspace's DATA is read at.
import { strict as assert } from 'node:assert';
import { AppError } from '../../src/errors.js';
import { CaptureAdmission } from '../../src/services/capture/capture-admission.js';

const limits = { transactions: 3, transactionsPerWorkspace: 2, bufferedBytes: 1000, bufferedBytesPerWorkspace: 600, spoolThresholdBytes: 100, dataBytesPerSecondPerWorkspace: 1000 };

const refusedWith = (pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof AppError);
  assert.equal(error.code, 'too_many_transactions');
  assert.deepEqual([error.smtpReply.code, error.smtpReply.enhanced, error.httpStatus], [451, '4.3.2', 503]);
  assert.match(error.message, pattern);
  return true;
};

describe('capture admission', () => {
  it('refuses a workspace past its transactions, then another past the overall cap, and admits again on release', () => {
    const admission = new CaptureAdmission(limits);
    const first = admission.open('ws_a');
    admission.open('ws_a');
    assert.throws(() => admission.open('ws_a'), refusedWith(/this workspace has 2 messages in transfer already/));
    admission.open('ws_b');
    assert.throws(() => admission.open('ws_c'), refusedWith(/the server has 3 messages in transfer already/));
    first.release();
    // Released once only: a second release must not free a place that is not there.
    first.release();
    admission.open('ws_c');
    assert.throws(() => admission.open('ws_d'), refusedWith(/the server has 3/));
  });

  it('holds bytes up to the workspace\'s and the overall cap; a refused transaction gives its bytes back at once', () => {
    const admission = new CaptureAdmission({ ...limits, transactions: 5 });
    const a1 = admission.open('ws_a');
    const a2 = admission.open('ws_a');
    assert.equal(a1.hold(400), true);
    assert.equal(a2.hold(150), true);
    assert.equal(a2.hold(100), false, 'past the workspace\'s 600');
    assert.match(a2.overBuffered().message, /at most 1 KiB for a workspace, 1 KiB in all/);
    // Refused: it holds nothing more, and its 150 are free for the transactions beside it.
    assert.equal(a2.hold(1), false);
    assert.equal(a1.hold(200), true, 'a2\'s bytes were given back');
    const b = admission.open('ws_b');
    assert.equal(b.hold(400), true);
    const c = admission.open('ws_c');
    assert.equal(c.hold(1), false, 'past the overall 1000 with 1000 held');
    a1.release();
    a2.release();
    const d = admission.open('ws_a');
    assert.equal(d.hold(600), true, 'a1\'s bytes are free again once it is released');
  });

  it('paces a workspace\'s DATA to its rate, shared by its transactions, and another workspace\'s not at all', () => {
    let now = 0;
    const admission = new CaptureAdmission({ ...limits, transactions: 5, bufferedBytes: 10_000, bufferedBytesPerWorkspace: 10_000 }, () => now);
    const a1 = admission.open('ws_a');
    const a2 = admission.open('ws_a');
    assert.equal(a1.paceMs(75), 0, 'within the burst, an eighth of a second\'s bytes');
    assert.equal(a2.paceMs(50), 0, 'the burst is the workspace\'s, not each transaction\'s');
    assert.equal(a1.paceMs(500), 500, 'half a second of debt at 1000 bytes a second');
    assert.equal(a2.paceMs(500), 1000, 'the next one waits behind it');
    assert.equal(admission.open('ws_b').paceMs(125), 0, 'another workspace has a rate of its own');
    now += 1000;
    assert.equal(a1.paceMs(0), 0, 'a second later the debt is paid');
    now += 5000;
    assert.equal(a1.paceMs(1125), 1000, 'an idle workspace saves up an eighth of a second\'s burst, no more');
  });
});
