// BlobStore and EventBus contracts, run against every backend.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../src/errors.js';
import type { BusEvent } from '../../src/storage/ports.js';
import { envelopeBlobKey, messageBlobFolder, rawBlobKey } from '../../src/domain/blob-keys.js';
import { backendFactories, type BackendUnderTest } from './backends.js';

for (const factory of backendFactories) {
  describe(`BlobStore contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    before(async () => {
      under = await factory.open();
    });
    after(() => under.dispose());

    it('returns the exact bytes put, and null after its folder is deleted', async () => {
      const { blobs } = under.backend;
      const bytes = randomBytes(70_000);
      await blobs.putMany([{ key: 'messages/ws_1/msg_1/raw.eml', data: bytes }]);
      await blobs.putMany([{ key: 'messages/ws_1/msg_1/thumbnail-0.png', data: Buffer.from('thumb') }]);
      await blobs.putMany([{ key: 'messages/ws_1/msg_2/raw.eml', data: Buffer.from('other') }]);
      assert.ok((await blobs.get('messages/ws_1/msg_1/raw.eml'))!.equals(bytes));
      await blobs.putMany([{ key: 'messages/ws_1/msg_1/raw.eml', data: Buffer.from('replaced') }]);
      assert.equal((await blobs.get('messages/ws_1/msg_1/raw.eml'))!.toString(), 'replaced');
      await blobs.deleteFolders(['messages/ws_1/msg_1/', 'messages/ws_1/never-existed/']);
      assert.equal(await blobs.get('messages/ws_1/msg_1/raw.eml'), null);
      assert.equal(await blobs.get('messages/ws_1/msg_1/thumbnail-0.png'), null);
      assert.equal((await blobs.get('messages/ws_1/msg_2/raw.eml'))!.toString(), 'other', 'a sibling folder stays');
    });

    it('gives back a capture envelope put with its raw message, whatever its size, and deletes it with the folder', async () => {
      const { blobs } = under.backend;
      // 1515 bytes is the largest envelope S3's 2 KB of user metadata can carry in base64 under its header name.
      const envelopes = [Buffer.from('{"inbox_id":"inb_1"}'), randomBytes(1515), randomBytes(1516), randomBytes(70_000)];
      await blobs.putMany(envelopes.flatMap((envelope, i) => [
        { key: rawBlobKey('ws_e', `msg_${i}`), data: Buffer.from(`raw ${i}`) },
        { key: envelopeBlobKey('ws_e', `msg_${i}`), data: envelope },
      ]));
      for (const [i, envelope] of envelopes.entries()) {
        assert.equal((await blobs.get(rawBlobKey('ws_e', `msg_${i}`)))!.toString(), `raw ${i}`);
        assert.ok((await blobs.get(envelopeBlobKey('ws_e', `msg_${i}`)))!.equals(envelope), `envelope ${i}`);
      }
      await blobs.putMany([{ key: rawBlobKey('ws_e', 'msg_alone'), data: Buffer.from('raw') }]);
      assert.equal(await blobs.get(envelopeBlobKey('ws_e', 'msg_alone')), null, 'a raw message without an envelope');
      assert.equal(await blobs.get(envelopeBlobKey('ws_e', 'msg_none')), null);
      await blobs.deleteFolders(envelopes.map((_, i) => messageBlobFolder('ws_e', `msg_${i}`)));
      for (const i of envelopes.keys()) assert.equal(await blobs.get(envelopeBlobKey('ws_e', `msg_${i}`)), null);
    });

    it('lists the folders directly under a folder', async () => {
      const { blobs } = under.backend;
      await blobs.putMany([{ key: 'messages/ws_l/msg_a/raw.eml', data: Buffer.from('a') }]);
      await blobs.putMany([{ key: 'messages/ws_l/msg_b/thumbnail-0.png', data: Buffer.from('b') }]);
      await blobs.putMany([{ key: 'messages/ws_l2/msg_c/raw.eml', data: Buffer.from('c') }]);
      assert.deepEqual((await blobs.listFolders('messages/ws_l/')).sort(), ['msg_a', 'msg_b']);
      assert.ok((await blobs.listFolders('messages/')).includes('ws_l2'));
      assert.deepEqual(await blobs.listFolders('messages/ws_none/'), []);
    });

    it('refuses keys that could escape its root', async () => {
      await assert.rejects(under.backend.blobs.putMany([{ key: '../escape', data: Buffer.from('x') }]));
      await assert.rejects(under.backend.blobs.get('raw/../../etc/passwd'));
    });

    it('refuses a folder that does not end in /, as the caller\'s mistake', async () => {
      const internal = (error: unknown) => error instanceof AppError && error.code === 'internal_error' && !error.expose;
      await assert.rejects(under.backend.blobs.listFolders('messages'), internal);
      await assert.rejects(under.backend.blobs.deleteFolders(['messages/ws_1/msg_1']), internal);
    });
  });

  describe(`EventBus contract (${factory.profile})`, () => {
    let under: BackendUnderTest;
    before(async () => {
      under = await factory.open();
    });
    after(() => under.dispose());

    it('delivers events published after subscribing, until unsubscribed', async () => {
      const { bus } = under.backend;
      const received: BusEvent[] = [];
      const event: BusEvent = { type: 'message.received', workspaceId: 'ws_1', inboxId: 'inb_1', messageId: 'msg_1' };
      let delivered: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      const unsubscribe = await bus.subscribe((e) => {
        received.push(e);
        delivered();
      });
      await bus.publish(event);
      await arrived;
      assert.deepEqual(received, [event]);
      await unsubscribe();
      await bus.publish({ ...event, messageId: 'msg_2' });
      assert.equal(received.length, 1);
    });
  });
}
