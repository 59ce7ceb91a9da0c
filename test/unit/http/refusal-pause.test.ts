// pauseBeforeRefusal: a 429 is held for the pause, never past its Retry-After, and let go when the client leaves.
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { pauseBeforeRefusal } from '../../../src/http/refusal-pause.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
}

const refusal = (retryAfter: string) => ({ httpStatus: 429, headers: { 'Retry-After': retryAfter } });

async function heldFor(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

describe('pauseBeforeRefusal', () => {
  it('holds a 429 for the pause', async () => {
    const socket = new FakeSocket();
    assert.ok((await heldFor(() => pauseBeforeRefusal(socket, refusal('5'), 120))) >= 110);
    assert.equal(socket.listenerCount('close'), 0, 'the close listener is taken off again');
  });

  it('never holds a refusal past its Retry-After', async () => {
    let settled = false;
    const pause = pauseBeforeRefusal(new FakeSocket(), refusal('1'), 60_000).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 1300));
    assert.ok(settled, 'a refusal saying "retry after 1s" was still held after 1.3 s');
    await pause;
  });

  it('sends other answers at once', async () => {
    const socket = new FakeSocket();
    assert.ok((await heldFor(() => pauseBeforeRefusal(socket, { httpStatus: 503, headers: { 'Retry-After': '1' } }, 60_000))) < 50);
    assert.equal(socket.listenerCount('close'), 0);
  });

  it('lets go as soon as the client leaves, and does not wait for a client gone already', async () => {
    const socket = new FakeSocket();
    const pause = pauseBeforeRefusal(socket, refusal('30'), 60_000);
    setTimeout(() => socket.emit('close'), 20);
    assert.ok((await heldFor(() => pause)) < 5000);
    assert.equal(socket.listenerCount('close'), 0);
    const gone = new FakeSocket();
    gone.destroyed = true;
    assert.ok((await heldFor(() => pauseBeforeRefusal(gone, refusal('30'), 60_000))) < 50);
  });
});
