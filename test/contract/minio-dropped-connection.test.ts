// The S3 blob store sends a write again when its connection drops before any answer (MinIO closing a keep-alive
// connection the client is reusing), and stores the object once; a write S3 itself refuses is not sent again.
import { strict as assert } from 'node:assert';
import net from 'node:net';
import { loadConfig } from '../../src/config.js';
import { MinioBlobStore } from '../../src/storage/cluster/minio-blob-store.js';
import { describeCluster } from '../support/profile.js';
import { tempDataDir } from '../support/server.js';

/** Relays TCP to `target`, resetting the connection of the first `resets` PUT requests as soon as they are sent. */
class ResettingProxy {
  resetsLeft: number;
  puts = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => {
    const upstream = net.connect(Number(this.target.port), this.target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => {
      if (chunk.subarray(0, 4).toString() === 'PUT ') {
        this.puts++;
        if (this.resetsLeft > 0) {
          this.resetsLeft--;
          upstream.destroy();
          client.resetAndDestroy();
          return;
        }
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  constructor(private readonly target: URL, resets: number) {
    this.resetsLeft = resets;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describeCluster('S3 blob store: dropped connections', function () {
  this.timeout(30_000);
  const config = loadConfig({ ...process.env, SANDBOX_DATA_DIR: tempDataDir(), SANDBOX_PROFILE: 'cluster' });
  const bucket = `mail-sandbox-test-dropped-${process.pid}-${Date.now()}`;
  const proxies: ResettingProxy[] = [];
  let direct: MinioBlobStore;

  before(async () => {
    direct = await MinioBlobStore.open(config, bucket);
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await direct?.removeBucket();
  });

  const throughProxy = async (resets: number) => {
    const proxy = new ResettingProxy(new URL(config.s3Url), resets);
    proxies.push(proxy);
    return { proxy, store: await MinioBlobStore.open({ ...config, s3Url: await proxy.listen() }, bucket) };
  };

  it('sends a write again when its connection is reset, and the object is stored', async () => {
    const { proxy, store } = await throughProxy(2);
    await store.putMany([{ key: 'messages/ws_a/msg_a/raw.eml', data: Buffer.from('Subject: kept\r\n\r\nbody\r\n') }]);
    assert.equal(proxy.puts, 3, 'two reset sends, then the one that was answered');
    assert.equal((await direct.get('messages/ws_a/msg_a/raw.eml'))?.toString(), 'Subject: kept\r\n\r\nbody\r\n');
  });

  it('gives up after two resends with storage_unavailable naming the dropped connection', async () => {
    const { proxy, store } = await throughProxy(5);
    await assert.rejects(store.putMany([{ key: 'messages/ws_a/msg_b/raw.eml', data: Buffer.from('x') }]),
      (error: Error & { code?: string }) => error.code === 'storage_unavailable' && /cannot write messages\/ws_a\/msg_b\/raw\.eml \((ECONNRESET|EPIPE)\)/.test(error.message));
    assert.equal(proxy.puts, 3);
    assert.equal(await direct.get('messages/ws_a/msg_b/raw.eml'), null);
  });
});
