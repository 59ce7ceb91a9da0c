// What the cluster adapters make of ioredis's errors, built as ioredis builds them.
import { strict as assert } from 'node:assert';
import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { AppError } from '../../../src/errors.js';
import { guardedRedis, translateRedisError } from '../../../src/storage/cluster/redis-connection.js';

const replyError = (message: string): Error => new (ReplyError as new (message: string) => Error)(message);

describe('translateRedisError', () => {
  it('turns a refused command into internal_error, never shown, cut to a sane length', () => {
    const driverError = replyError(`ERR Error running script (call to f_0123): @user_script:1: ${'x'.repeat(300)}`);
    const error = translateRedisError(driverError);
    assert.equal(error.code, 'internal_error');
    assert.equal(error.expose, false);
    assert.equal(error.message, `Redis refused a command: ${driverError.message.slice(0, 120)}`);
    assert.equal(error.cause, driverError);
  });

  it('turns a reply that means "not now" into storage_unavailable', () => {
    for (const message of [
      'LOADING Redis is loading the dataset in memory',
      'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.',
      'READONLY You can\'t write against a read only replica.',
      'OOM command not allowed when used memory > \'maxmemory\'.',
      'MISCONF Redis is configured to save RDB snapshots, but it\'s currently unable to persist to disk.',
    ]) {
      const error = translateRedisError(replyError(message));
      assert.equal(error.code, 'storage_unavailable', message);
      assert.equal(error.component, 'redis', 'counted against Redis in the metrics');
      assert.equal(error.message, `Redis is unavailable: ${message.replace(/\.$/, '').slice(0, 120)}`);
    }
  });

  it('names a lost connection briefly: by the socket error code, or "not connected"', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
    assert.deepEqual(summary(translateRedisError(refused)), { code: 'storage_unavailable', message: 'Redis is unavailable: ECONNREFUSED' });
    assert.deepEqual(summary(translateRedisError(new MaxRetriesPerRequestError(0))), { code: 'storage_unavailable', message: 'Redis is unavailable: not connected' });
    const offline = new Error('Stream isn\'t writeable and enableOfflineQueue options is false');
    assert.deepEqual(summary(translateRedisError(offline)), { code: 'storage_unavailable', message: 'Redis is unavailable: not connected' });
    assert.deepEqual(summary(translateRedisError(new Error('Command timed out'))), { code: 'storage_unavailable', message: 'Redis is unavailable: Command timed out' });
    assert.deepEqual(summary(translateRedisError(new Error('Connection is closed.'))), { code: 'storage_unavailable', message: 'Redis is unavailable: Connection is closed' });
  });

  it('passes an AppError through unchanged and wraps anything else thrown', async () => {
    const original = new AppError('not_found', 'no webhook');
    assert.equal(translateRedisError(original), original);
    assert.equal(translateRedisError('a string').code, 'storage_unavailable');
    await assert.rejects(guardedRedis(() => Promise.reject(replyError('WRONGTYPE Operation against a key holding the wrong kind of value'))), { code: 'internal_error' });
  });
});

function summary(error: AppError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}
