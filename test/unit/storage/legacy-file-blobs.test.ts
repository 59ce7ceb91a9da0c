// A data dir from before blobs moved into SQLite keeps every blob: the files are moved in at start.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config.js';
import { openBackend } from '../../../src/storage/index.js';

describe('blobs kept as files by earlier versions', () => {
  it('are moved into the database at start, byte for byte, and the folder is removed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-legacy-'));
    const files = {
      'messages/ws_1/msg_a/raw.eml': Buffer.from('Subject: a\r\n\r\nbody a\r\n'),
      'messages/ws_1/msg_a/envelope.json': Buffer.from('{"version":1}'),
      'messages/ws_2/msg_b/raw.eml': Buffer.from([0, 1, 2, 255]),
    };
    for (const [key, data] of Object.entries(files)) {
      fs.mkdirSync(path.join(dataDir, 'blobs', path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'blobs', key), data);
    }
    // A temporary file a crash left mid-write is no blob.
    fs.writeFileSync(path.join(dataDir, 'blobs/messages/ws_1/msg_a/raw.eml.1234.tmp'), 'partial');
    const backend = await openBackend(loadConfig({ SANDBOX_DATA_DIR: dataDir }));
    try {
      for (const [key, data] of Object.entries(files)) assert.deepEqual(await backend.blobs.get(key), data, key);
      assert.deepEqual((await backend.blobs.listFolders('messages/')).sort(), ['ws_1', 'ws_2']);
      assert.equal(await backend.blobs.get('messages/ws_1/msg_a/raw.eml.1234.tmp'), null);
      assert.equal(fs.existsSync(path.join(dataDir, 'blobs')), false);
    } finally {
      await backend.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
