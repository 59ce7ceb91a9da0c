// The webhook worker's admission: per-workspace and per-receiver caps, and the breaker of a receiver that keeps not answering.
import { strict as assert } from 'node:assert';
import { DeliveryAdmission, receiverOf } from '../../../src/workers/delivery-admission.js';

const LIMITS = { perWorkspace: 2, perHost: 2, breakerFailures: 3, coolOffMs: 60_000 };

describe('DeliveryAdmission', () => {
  let clock: number;
  let admission: DeliveryAdmission;
  beforeEach(() => {
    clock = 1_000_000;
    admission = new DeliveryAdmission(LIMITS, () => clock);
  });

  /** Three attempts of the workspace to the receiver without an answer: enough to open its breaker. */
  function failThrice(workspaceId: string, receiver: string): void {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(admission.admit(`whk_${workspaceId}`, workspaceId, receiver), { kind: 'go' });
      assert.equal(admission.settle(workspaceId, receiver, 'no_answer'), i === 2, `attempt ${i + 1} opens the breaker only as the third in a row`);
    }
  }

  it('names a receiver by host and port, case aside', () => {
    assert.equal(receiverOf('https://Hooks.Example.com/a?b=1'), 'hooks.example.com');
    assert.equal(receiverOf('http://127.0.0.1:8081/hook'), '127.0.0.1:8081');
    assert.notEqual(receiverOf('http://127.0.0.1:8081/hook'), receiverOf('http://127.0.0.1:8082/hook'));
  });

  it('gives each busy workspace the room its cap leaves, and frees it on release', () => {
    admission.claimed('ws_a');
    admission.claimed('ws_a');
    admission.claimed('ws_b');
    assert.deepEqual(admission.shares().workspaceRoom, new Map([['ws_a', 0], ['ws_b', 1]]));
    assert.equal(admission.shares().perWorkspace, 2);
    admission.released('ws_a');
    admission.released('ws_b');
    assert.deepEqual(admission.shares().workspaceRoom, new Map([['ws_a', 1]]));
  });

  it('lets no more attempts to a receiver than its cap, whatever the workspace, and skips its webhooks until a slot frees', () => {
    assert.deepEqual(admission.admit('whk_1', 'ws_a', 'slow.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_2', 'ws_b', 'slow.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_3', 'ws_c', 'slow.test'), { kind: 'busy' });
    assert.deepEqual(admission.admit('whk_4', 'ws_a', 'fast.test'), { kind: 'go' }, 'another receiver has slots of its own');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(['whk_1', 'whk_2', 'whk_3']));
    admission.settle('ws_a', 'slow.test', 'answered');
    assert.deepEqual(admission.shares().skipWebhooks, new Set());
    assert.deepEqual(admission.admit('whk_3', 'ws_c', 'slow.test'), { kind: 'go' });
  });

  it('cools a receiver off for the workspace after the failures in a row, probes it once after, and closes on an answer', () => {
    failThrice('ws_a', 'dead.test');
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) });
    assert.deepEqual(admission.admit('whk_other', 'ws_a', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) }, 'every webhook of the workspace to that receiver');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(), 'claimed while cooling off, to be deferred to its end');

    clock += 60_000;
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_other', 'ws_a', 'dead.test'), { kind: 'busy' }, 'one probe at a time');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(['whk_ws_a', 'whk_other']));
    assert.equal(admission.settle('ws_a', 'dead.test', 'answered'), false);
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_other', 'ws_a', 'dead.test'), { kind: 'go' }, 'closed: the normal cap again');
  });

  it('never cools a receiver off for another workspace', () => {
    failThrice('ws_attacker', 'shared.test');
    assert.equal(admission.admit('whk_ws_attacker', 'ws_attacker', 'shared.test').kind, 'cooling_off');
    assert.deepEqual(admission.admit('whk_victim', 'ws_victim', 'shared.test'), { kind: 'go' });
    assert.equal(admission.settle('ws_victim', 'shared.test', 'answered'), false);
    assert.equal(admission.admit('whk_ws_attacker', 'ws_attacker', 'shared.test').kind, 'cooling_off', 'another workspace\'s answer does not close it');
  });

  it('opens again at once when the probe gets no answer', () => {
    failThrice('ws_a', 'dead.test');
    clock += 60_000;
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'go' });
    assert.equal(admission.settle('ws_a', 'dead.test', 'no_answer'), true);
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) });
  });

  it('counts only failures in a row: an answer in between starts the count again', () => {
    for (const reach of ['no_answer', 'no_answer', 'answered', 'no_answer', 'no_answer'] as const) {
      assert.deepEqual(admission.admit('whk_flaky', 'ws_a', 'flaky.test'), { kind: 'go' });
      assert.equal(admission.settle('ws_a', 'flaky.test', reach), false);
    }
  });

  it('lets another probe out when one is abandoned (the node stopping)', () => {
    failThrice('ws_a', 'dead.test');
    clock += 60_000;
    admission.admit('whk_ws_a', 'ws_a', 'dead.test');
    assert.equal(admission.settle('ws_a', 'dead.test', 'abandoned'), false);
    assert.deepEqual(admission.admit('whk_ws_a', 'ws_a', 'dead.test'), { kind: 'go' });
  });
});
