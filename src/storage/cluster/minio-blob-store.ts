// BlobStore on MinIO (or any S3): one object per key in the namespace's bucket, created on start; a capture envelope put with its raw message rides on that object.
import http from 'node:http';
import https from 'node:https';
import type * as Minio from 'minio';
import { minioLibrary } from './cluster-libraries.js';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { within } from '../../domain/deadline.js';
import type { BlobEntry, BlobStore } from '../ports.js';
import { checkBlobFolder, rawKeyBesideEnvelope } from '../../domain/blob-keys.js';

export type S3Settings = Pick<Config, 's3Url' | 's3AccessKey' | 's3SecretKey' | 's3Region'>;

/** Longest a single S3 call may take before the caller is told storage is unavailable (a 25 MB put included). */
const REQUEST_TIMEOUT_MS = 30_000;
const REMOVE_BATCH = 1000;
/**
 * A write whose connection dropped before any answer is sent again this many times. Under load MinIO closes idle
 * keep-alive connections that the client is just reusing: 138 of a million imported messages were refused for
 * ECONNRESET. A PUT of a whole object to its key writes the same object however often it arrives.
 */
const DROPPED_WRITE_RETRIES = 2;
/** Socket errors that mean the connection went away, not that S3 answered. */
const DROPPED_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);
/** User metadata of a raw message's object that carries its capture envelope (see putMany). */
const ENVELOPE_METADATA = 'sandbox-envelope';
/** S3 refuses more than 2 KB of user metadata on an object; MinIO counts each header's name with its `x-amz-meta-` prefix. */
const USER_METADATA_LIMIT = 2048;
const METADATA_HEADER_PREFIX = 'x-amz-meta-';

/** The envelope as metadata (base64: header values are ASCII, an address may not be), or null when it does not fit. */
function envelopeMetadata(envelope: Buffer): Record<string, string> | null {
  const value = envelope.toString('base64');
  return METADATA_HEADER_PREFIX.length + ENVELOPE_METADATA.length + value.length <= USER_METADATA_LIMIT ? { [ENVELOPE_METADATA]: value } : null;
}

const unavailable = (action: string, detail: string, cause?: unknown): AppError =>
  new AppError('storage_unavailable', `S3 storage is unavailable: cannot ${action} (${detail})`, { component: 's3', cause });

/** Turns whatever the MinIO client throws while doing `action` into an AppError, so no S3 error type leaves the adapter. */
export function translateS3Error(action: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  // An S3 error code (SlowDown, AccessDenied...) or a socket's (ECONNREFUSED...) says most in fewest words.
  const code = (error as { code?: unknown } | null)?.code;
  return unavailable(action, typeof code === 'string' ? code : error instanceof Error ? error.message : String(error), error);
}

/** Resolves what `operation` resolves, or fails with storage_unavailable once the timeout passes (a stalled server must not hang a capture). */
async function bounded<T>(action: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await within(operation(), REQUEST_TIMEOUT_MS, () => unavailable(action, `no answer in ${REQUEST_TIMEOUT_MS / 1000} s`));
  } catch (error) {
    throw translateS3Error(action, error);
  }
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

export class MinioBlobStore implements BlobStore {
  private constructor(private readonly client: Minio.Client, private readonly bucket: string) {}

  /** Connects and creates the bucket when it is missing; a concurrent creator on another node is fine. */
  static async open(settings: S3Settings, bucket: string): Promise<MinioBlobStore> {
    const url = new URL(settings.s3Url);
    const useSSL = url.protocol === 'https:';
    const client = new (minioLibrary().Client)({
      endPoint: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: settings.s3AccessKey,
      secretKey: settings.s3SecretKey,
      region: settings.s3Region,
      pathStyle: true,
      transportAgent: useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true }),
    });
    const store = new MinioBlobStore(client, bucket);
    await bounded(`create bucket ${bucket}`, async () => {
      if (await client.bucketExists(bucket)) return;
      try {
        await client.makeBucket(bucket, settings.s3Region);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      }
    });
    return store;
  }

  /** Readiness: the server answers and the bucket is there; bounded far below the request timeout by its caller. */
  async probe(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} does not exist`);
  }

  /**
   * Deletes every object and then the bucket itself (namespace clean-up). MinIO deletes a whole prefix in one request
   * when asked with its force-delete header, where a listing deletes a thousand objects a request; a store that
   * ignores the header (S3) deletes nothing then, and the listing that follows deletes what is left either way.
   */
  async removeBucket(): Promise<void> {
    const topLevel = await bounded(`list ${this.bucket}`, async () => {
      const prefixes: string[] = [];
      for await (const entry of this.client.listObjectsV2(this.bucket, '', false)) if (entry.prefix) prefixes.push(entry.prefix);
      return prefixes;
    });
    for (const prefix of topLevel) {
      await bounded(`delete under ${prefix}`, () => this.client.removeObject(this.bucket, prefix, { forceDelete: true }));
    }
    await this.removeAllUnder('');
    await bounded(`remove bucket ${this.bucket}`, () => this.client.removeBucket(this.bucket));
  }

  private async putObject(key: string, data: Buffer, metadata: Record<string, string>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        // MinIO answers a PUT only after the object is written to its drives, so a resolved put is durable.
        await bounded(`write ${key}`, () => this.client.putObject(this.bucket, key, data, data.length, metadata));
        return;
      } catch (error) {
        const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
        if (attempt === DROPPED_WRITE_RETRIES || typeof code !== 'string' || !DROPPED_CONNECTION.has(code)) throw error;
      }
    }
  }

  /**
   * S3 has no multi-object write; the puts go out in parallel. A capture envelope put together with its raw
   * message travels as the raw object's user metadata when it fits, and get() reads it back from there: one PUT
   * per message instead of two (each PUT cost MinIO about 1.5 ms of CPU here), and the two land together.
   */
  async putMany(entries: BlobEntry[]): Promise<void> {
    const keys = new Set(entries.map(({ key }) => key));
    const carried = new Map<string, Record<string, string>>();
    const alone = entries.filter(({ key, data }) => {
      const rawKey = rawKeyBesideEnvelope(key);
      const metadata = rawKey !== null && keys.has(rawKey) ? envelopeMetadata(data) : null;
      if (metadata) carried.set(rawKey!, metadata);
      return !metadata;
    });
    await Promise.all(alone.map(({ key, data }) => this.putObject(key, data, carried.get(key) ?? {})));
  }

  async get(key: string): Promise<Buffer | null> {
    return bounded(`read ${key}`, async () => {
      try {
        const chunks = await collect<Buffer>(await this.client.getObject(this.bucket, key));
        return Buffer.concat(chunks);
      } catch (error) {
        if ((error as { code?: string }).code !== 'NoSuchKey') throw error;
        const rawKey = rawKeyBesideEnvelope(key);
        return rawKey === null ? null : this.envelopeCarriedBy(rawKey);
      }
    });
  }

  /** The envelope putMany stored on a raw message's object, or null. */
  private async envelopeCarriedBy(rawKey: string): Promise<Buffer | null> {
    try {
      const value = (await this.client.statObject(this.bucket, rawKey)).metaData[ENVELOPE_METADATA] as string | undefined;
      return value === undefined ? null : Buffer.from(value, 'base64');
    } catch (error) {
      if (['NotFound', 'NoSuchKey'].includes((error as { code?: string }).code ?? '')) return null;
      throw error;
    }
  }

  /** Objects in the bucket and their bytes, for the scale benches' storage per message (a listing: not for requests). */
  async usage(): Promise<{ objects: number; bytes: number }> {
    let objects = 0;
    let bytes = 0;
    try {
      for await (const item of this.client.listObjectsV2(this.bucket, '', true)) {
        objects++;
        bytes += item.size ?? 0;
      }
    } catch (error) {
      throw translateS3Error(`list ${this.bucket}`, error);
    }
    return { objects, bytes };
  }

  async listFolders(folder: string): Promise<string[]> {
    checkBlobFolder(folder);
    const items = await bounded(`list ${folder}`, () => collect(this.client.listObjectsV2(this.bucket, folder, false)));
    return items.flatMap((item) => (item.prefix ? [item.prefix.slice(folder.length, -1)] : []));
  }

  async deleteFolders(folders: string[]): Promise<void> {
    for (const folder of folders) await this.removeAllUnder(checkBlobFolder(folder));
  }

  /** Removes these objects, absent ones being no error: what a capture put, known by key, with no listing. */
  async deleteKeys(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += REMOVE_BATCH) {
      const names = keys.slice(start, start + REMOVE_BATCH);
      const results = await bounded(`delete ${names.length} objects`, () => this.client.removeObjects(this.bucket, names));
      const failed = results.find((result) => result?.Error);
      if (failed) throw unavailable(`delete ${failed.Error!.Key ?? names[0]}`, failed.Error!.Code ?? 'error');
    }
  }

  /**
   * Removes a batch at a time as the listing streams in, so the time bound holds per batch: listing a whole namespace
   * of 100,000 messages in one bounded step took longer than the bound.
   */
  private async removeAllUnder(folder: string): Promise<void> {
    const listing = this.client.listObjectsV2(this.bucket, folder, true)[Symbol.asyncIterator]();
    for (;;) {
      const names = await bounded(`list ${folder}`, async () => {
        const batch: string[] = [];
        while (batch.length < REMOVE_BATCH) {
          const next = await listing.next();
          if (next.done) break;
          if (next.value.name) batch.push(next.value.name);
        }
        return batch;
      });
      if (names.length === 0) return;
      const results = await bounded(`delete under ${folder}`, () => this.client.removeObjects(this.bucket, names));
      const failed = results.find((result) => result?.Error);
      if (failed) throw unavailable(`delete ${failed.Error!.Key ?? folder}`, failed.Error!.Code ?? 'error');
    }
  }
}
