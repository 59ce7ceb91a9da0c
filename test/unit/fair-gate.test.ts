// FairGate: bounded concurrency, a bounded queue, a share and a concurrency per key, and turns between keys.
import { strict as assert } from 'node:assert';
import { FairGate, GateRefusal } from '../../src/domain/fair-gate.js';

/** A task that runs until `release` is called, recording when it started. */
function heldTask(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { task: async () => { started.push(name); await done; return name; }, release: () => release() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairGate', () => {
  it('runs at most `concurrency` tasks and starts waiting ones in turns between keys', async () => {
    const gate = new FairGate({ concurrency: 1, queueLimit: 10, perKeyLimit: 5 });
    const started: string[] = [];
    const first = heldTask(started, 'a1');
    const tasks = [first, heldTask(started, 'a2'), heldTask(started, 'a3'), heldTask(started, 'b1'), heldTask(started, 'c1')];
    const keys = ['a', 'a', 'a', 'b', 'c'];
    const results = tasks.map((held, index) => gate.run(keys[index]!, held.task));
    await settle();
    assert.deepEqual(started, ['a1']);
    assert.deepEqual(gate.stats(), { running: 1, waiting: 4 });
    for (const held of tasks) {
      held.release();
      await settle();
    }
    assert.deepEqual(await Promise.all(results), ['a1', 'a2', 'a3', 'b1', 'c1']);
    // Key a's backlog waited behind b and c, not the other way round.
    assert.deepEqual(started, ['a1', 'a2', 'b1', 'c1', 'a3']);
    assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
  });

  it('refuses a key past its share and anyone past a full queue, at once', async () => {
    const gate = new FairGate({ concurrency: 1, queueLimit: 2, perKeyLimit: 2 });
    const started: string[] = [];
    const held = [heldTask(started, 'a1'), heldTask(started, 'a2'), heldTask(started, 'b1')];
    const running = [gate.run('a', held[0]!.task), gate.run('a', held[1]!.task), gate.run('b', held[2]!.task)];
    await assert.rejects(gate.run('a', async () => 'a3'), (error: GateRefusal) => error.reason === 'key_full');
    await assert.rejects(gate.run('c', async () => 'c1'), (error: GateRefusal) => error.reason === 'queue_full');
    for (const task of held) {
      task.release();
      await settle();
    }
    await Promise.all(running);
    assert.equal(await gate.run('a', async () => 'later'), 'later', 'shares come back when tasks end');
  });

  it('runs at most `perKeyConcurrency` of one key\'s tasks, leaving a slot that another key takes at once', async () => {
    const gate = new FairGate({ concurrency: 2, queueLimit: 10, perKeyLimit: 10, perKeyConcurrency: 1 });
    const started: string[] = [];
    const a = [heldTask(started, 'a1'), heldTask(started, 'a2')];
    const results = a.map((held) => gate.run('a', held.task));
    await settle();
    assert.deepEqual(started, ['a1'], 'a\'s second waits although a slot is free');
    assert.deepEqual(gate.stats(), { running: 1, waiting: 1 });
    assert.equal(await gate.run('b', async () => 'b1'), 'b1', 'b takes the free slot at once');
    a[0]!.release();
    await settle();
    assert.deepEqual(started, ['a1', 'a2']);
    a[1]!.release();
    assert.deepEqual(await Promise.all(results), ['a1', 'a2']);
    assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
  });

  it('frees the slot and the share when a task fails', async () => {
    const gate = new FairGate({ concurrency: 1, queueLimit: 1, perKeyLimit: 1 });
    await assert.rejects(gate.run('a', async () => { throw new Error('boom'); }), /boom/);
    assert.equal(await gate.run('a', async () => 'ok'), 'ok');
    assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
  });
  it('lets a caller wait for room in the share of its key instead of being refused, and stop waiting when aborted', async () => {
    const gate = new FairGate({ concurrency: 1, queueLimit: 10, perKeyLimit: 2 });
    const started: string[] = [];
    const held = [heldTask(started, 'a1'), heldTask(started, 'a2')];
    const results = held.map((task) => gate.run('a', task.task));
    await settle();
    await assert.rejects(gate.run('a', async () => 'refused'), (error: unknown) => error instanceof GateRefusal && error.reason === 'key_full');
    // Another key has room: its wait ends at once.
    await gate.whenRoom('b');
    let roomForA = false;
    const waitingForRoom = gate.whenRoom('a').then(() => { roomForA = true; });
    const abandoned = new AbortController();
    const abandoning = gate.whenRoom('a', abandoned.signal);
    await settle();
    assert.equal(roomForA, false, 'key a holds its whole share: no room yet');
    abandoned.abort(new Error('client went away'));
    await assert.rejects(abandoning, /client went away/);
    held[0]!.release();
    await waitingForRoom;
    // The room is real: a run started now is let in.
    const third = heldTask(started, 'a3');
    const thirdResult = gate.run('a', third.task);
    held[1]!.release();
    third.release();
    assert.deepEqual([...(await Promise.all(results)), await thirdResult], ['a1', 'a2', 'a3']);
    assert.deepEqual(gate.stats(), { running: 0, waiting: 0 });
  });
});
