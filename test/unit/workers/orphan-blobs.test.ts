// The orphan sweep on a real embedded backend: only settled message folders without an index entry go.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config.js';
import { openBackend } from '../../../src/storage/index.js';
import type { Backend } from '../../../src/storage/ports.js';
import { newId } from '../../../src/domain/ids.js';
import { rawBlobKey } from '../../../src/domain/blob-keys.js';
import { sweepOrphanBlobs } from '../../../src/workers/orphan-blobs.js';
import { insertOne, aMessage, UNLIMITED } from '../../contract/fixtures.js';

describe('sweepOrphanBlobs', () => {
  let dataDir: string;
  let backend: Backend;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-orphans-'));
    backend = await openBackend(loadConfig({ SANDBOX_DATA_DIR: dataDir }));
  });
  after(async () => {
    await backend.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('removes old folders nothing indexes, and keeps indexed, young and foreign ones', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const hourAgo = now.getTime() - 3600_000;
    const indexed = aMessage('ws_o', 'inb_o', { id: newId('msg', hourAgo) });
    await insertOne(backend.captures, { ...indexed, rawKey: rawBlobKey('ws_o', indexed.id) }, UNLIMITED);
    const orphan = newId('msg', hourAgo);
    const young = newId('msg', now.getTime() - 60_000);
    for (const id of [indexed.id, orphan, young, 'not-a-message-id']) await backend.blobs.putMany([{ key: rawBlobKey('ws_o', id), data: Buffer.from(id) }]);

    assert.deepEqual(await sweepOrphanBlobs(backend, () => now), { removed: 1, indexMissing: [] });
    assert.equal(await backend.blobs.get(rawBlobKey('ws_o', orphan)), null, 'the orphan went');
    for (const kept of [indexed.id, young, 'not-a-message-id']) assert.ok(await backend.blobs.get(rawBlobKey('ws_o', kept)), `${kept} stays`);
    assert.deepEqual(await sweepOrphanBlobs(backend, () => now), { removed: 0, indexMissing: [] });
  });

  it('leaves a workspace alone when the index knows none of its old folders (a lost index, for scripts/reindex)', async () => {
    // Ids are monotonic ULIDs, so these must lie after every id made so far: "now" is two hours ahead.
    const now = new Date(Date.now() + 7200_000);
    const unknown = [newId('msg', now.getTime() - 7200_000), newId('msg', now.getTime() - 3600_000)];
    for (const id of unknown) await backend.blobs.putMany([{ key: rawBlobKey('ws_lost', id), data: Buffer.from(id) }]);
    assert.deepEqual((await sweepOrphanBlobs(backend, () => now)).indexMissing, ['ws_lost']);
    for (const id of unknown) assert.ok(await backend.blobs.get(rawBlobKey('ws_lost', id)), `${id} stays`);
  });
});
