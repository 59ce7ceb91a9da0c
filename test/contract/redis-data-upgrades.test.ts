// Redis data written by older builds, upgraded in place: API keys and memberships indexed, people's origins found.
import { strict as assert } from 'node:assert';
import { upgradeRedisData } from '../../src/storage/cluster/redis-data-upgrades.js';
import { RedisMetadataStore } from '../../src/storage/cluster/redis-metadata-store.js';
import { RedisAccountStore } from '../../src/storage/cluster/redis-account-store.js';
import { RedisNamespace, type RedisConnection } from './redis-namespace.js';
import { describeCluster } from '../support/profile.js';

describeCluster('Redis data upgrades (real Redis)', () => {
  let namespace: RedisNamespace;
  let redis: RedisConnection;

  before(async () => {
    namespace = new RedisNamespace();
    redis = await namespace.connect('upgrades');
  });
  after(() => namespace.dispose());

  it('lists keys and memberships stored by an older build, as an older build stored them', async () => {
    const p = namespace.prefix;
    // What the previous build wrote: no key list, no name/prefix/lastUsedAt fields, no memberships index.
    await redis.hset(`${p}workspace:ws_old`, { id: 'ws_old', name: 'old', plan: 'unlimited', createdAt: 1000 });
    await redis.zadd(`${p}workspaces`, 1000, 'ws_old');
    await redis.hset(`${p}api-key:key_old`, { id: 'key_old', workspaceId: 'ws_old', access: 'read', keyHash: 'a'.repeat(64), createdAt: 2000 });
    await redis.set(`${p}api-key-hash:${'a'.repeat(64)}`, 'key_old');
    await redis.hset(`${p}members:ws_old`, 'owner@old.test', JSON.stringify({ role: 'owner', createdAt: 3000 }));

    await upgradeRedisData(redis, p);
    assert.equal(await redis.get(`${p}data-version`), '3');
    await upgradeRedisData(redis, p);

    const metadata = new RedisMetadataStore(redis, p);
    assert.deepEqual(await metadata.listApiKeys('ws_old'), [{
      id: 'key_old', workspaceId: 'ws_old', access: 'read', name: null, prefix: 'sbx_api_', keyHash: 'a'.repeat(64),
      createdAt: new Date(2000), lastUsedAt: null, revokedAt: null,
    }]);
    const accounts = new RedisAccountStore(redis, p);
    assert.deepEqual(await accounts.listMembershipsOf('owner@old.test'), [{ workspaceId: 'ws_old', email: 'owner@old.test', role: 'owner', createdAt: new Date(3000) }]);
  });

  it('marks the people accepted invitations made or set the password of, as older builds stored them', async () => {
    const p = `${namespace.prefix}origins:`;
    await redis.zadd(`${p}workspaces`, 1000, 'ws_evil');
    const invitation = async (id: string, email: string, acceptedAt: number) => {
      await redis.hset(`${p}invitation:${id}`, { id, workspaceId: 'ws_evil', email, role: 'member', tokenHash: id, invitedBy: 'eve@evil.test', createdAt: 100, expiresAt: 9_999_999, acceptedAt });
      await redis.zadd(`${p}invitations:ws_evil`, 100, id);
    };
    const person = async (id: string, email: string, createdAt: number, passwordChangedAt: number) => {
      await redis.hset(`${p}person:${id}`, { id, email, passwordHash: 'scrypt$x', createdAt, passwordChangedAt });
      await redis.set(`${p}person-email:${email}`, id);
    };
    await person('psn_made', 'made@x.test', 5000, 5000);
    await invitation('inv_made', 'made@x.test', 5000);
    await person('psn_set', 'set@x.test', 1000, 6000);
    await invitation('inv_set', 'set@x.test', 6000);
    await person('psn_operator', 'operator@x.test', 1000, 2000);
    await invitation('inv_joined', 'operator@x.test', 7000);

    await upgradeRedisData(redis, p);
    const accounts = new RedisAccountStore(redis, p);
    assert.deepEqual((await accounts.findPersonByEmail('made@x.test'))?.origin, { kind: 'invitation', workspaceId: 'ws_evil', invitationId: 'inv_made', invitedBy: 'eve@evil.test' });
    assert.deepEqual((await accounts.findPersonByEmail('set@x.test'))?.origin, { kind: 'invitation', workspaceId: 'ws_evil', invitationId: 'inv_set', invitedBy: 'eve@evil.test' });
    assert.deepEqual((await accounts.findPersonByEmail('operator@x.test'))?.origin, { kind: 'operator' }, 'joining with an existing password made nothing');
    assert.equal((await accounts.findPersonByEmail('made@x.test'))?.provedAt, null);
  });
});
