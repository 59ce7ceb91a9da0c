// What the cluster blob store makes of the MinIO client's errors, built as the client builds them.
import { strict as assert } from 'node:assert';
import { S3Error } from 'minio';
import { AppError } from '../../../src/errors.js';
import { translateS3Error } from '../../../src/storage/cluster/minio-blob-store.js';

/** An error S3 answered with, as minio's response parser makes it: the XML's Code becomes `code`. */
function s3Error(code: string, message: string): S3Error {
  const error = new S3Error(message);
  error.code = code;
  return error;
}

describe('translateS3Error', () => {
  it('turns an S3 error answer into storage_unavailable naming the action and the S3 code', () => {
    for (const [code, message] of [
      ['SlowDown', 'Please reduce your request rate.'],
      ['AccessDenied', 'Access Denied.'],
      ['NoSuchBucket', 'The specified bucket does not exist'],
      ['XMinioStorageFull', 'Storage backend has reached its minimum free drive threshold.'],
    ] as const) {
      const driverError = s3Error(code, message);
      const error = translateS3Error('write messages/ws_1/msg_1/raw.eml', driverError);
      assert.equal(error.code, 'storage_unavailable', code);
      assert.equal(error.component, 's3', 'counted against S3 in the metrics');
      assert.equal(error.message, `S3 storage is unavailable: cannot write messages/ws_1/msg_1/raw.eml (${code})`);
      assert.equal(error.cause, driverError);
    }
  });

  it('names a network failure by its socket code, and an error without one by its message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' });
    assert.equal(translateS3Error('list messages/', refused).message, 'S3 storage is unavailable: cannot list messages/ (ECONNREFUSED)');
    assert.equal(translateS3Error('read k', new Error('socket hang up')).message, 'S3 storage is unavailable: cannot read k (socket hang up)');
    assert.equal(translateS3Error('read k', undefined).message, 'S3 storage is unavailable: cannot read k (undefined)');
  });

  it('passes an AppError through unchanged', () => {
    const original = new AppError('internal_error', 'blob folder \'x\' must end with \'/\'', { expose: false });
    assert.equal(translateS3Error('list x', original), original);
  });
});
