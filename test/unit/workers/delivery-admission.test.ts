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

  it('lets no more attempts to a receiver than its cap, and skips its webhooks until a slot frees', () => {
    assert.deepEqual(admission.admit('whk_1', 'slow.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_2', 'slow.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_3', 'slow.test'), { kind: 'busy' });
    assert.deepEqual(admission.admit('whk_4', 'fast.test'), { kind: 'go' }, 'another receiver has slots of its own');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(['whk_1', 'whk_2', 'whk_3']));
    admission.settle('slow.test', 'answered');
    assert.deepEqual(admission.shares().skipWebhooks, new Set());
    assert.deepEqual(admission.admit('whk_3', 'slow.test'), { kind: 'go' });
  });

  it('cools a receiver off after the failures in a row, probes it once after, and closes on an answer', () => {
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
      assert.equal(admission.settle('dead.test', 'no_answer'), false);
    }
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
    assert.equal(admission.settle('dead.test', 'no_answer'), true, 'the third in a row opens the breaker');
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) });
    assert.deepEqual(admission.admit('whk_other', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) }, 'every webhook to that receiver');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(), 'claimed while cooling off, to be deferred to its end');

    clock += 60_000;
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_other', 'dead.test'), { kind: 'busy' }, 'one probe at a time');
    assert.deepEqual(admission.shares().skipWebhooks, new Set(['whk_dead', 'whk_other']));
    assert.equal(admission.settle('dead.test', 'answered'), false);
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
    assert.deepEqual(admission.admit('whk_other', 'dead.test'), { kind: 'go' }, 'closed: the normal cap again');
  });

  it('opens again at once when the probe gets no answer', () => {
    for (let i = 0; i < 3; i++) {
      admission.admit('whk_dead', 'dead.test');
      admission.settle('dead.test', 'no_answer');
    }
    clock += 60_000;
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
    assert.equal(admission.settle('dead.test', 'no_answer'), true);
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'cooling_off', until: new Date(clock + 60_000) });
  });

  it('counts only failures in a row: an answer in between starts the count again', () => {
    for (const reach of ['no_answer', 'no_answer', 'answered', 'no_answer', 'no_answer'] as const) {
      assert.deepEqual(admission.admit('whk_flaky', 'flaky.test'), { kind: 'go' });
      assert.equal(admission.settle('flaky.test', reach), false);
    }
  });

  it('lets another probe out when one is abandoned (the node stopping)', () => {
    for (let i = 0; i < 3; i++) {
      admission.admit('whk_dead', 'dead.test');
      admission.settle('dead.test', 'no_answer');
    }
    clock += 60_000;
    admission.admit('whk_dead', 'dead.test');
    assert.equal(admission.settle('dead.test', 'abandoned'), false);
    assert.deepEqual(admission.admit('whk_dead', 'dead.test'), { kind: 'go' });
  });
});
