// The cluster profile's client libraries, loaded on first use rather than when the storage layer is imported.
import { createRequire } from 'node:module';
import type * as Elasticsearch from '@elastic/elasticsearch';
import type * as Minio from 'minio';
import type * as IORedis from 'ioredis';

/**
 * Loaded, the Elasticsearch, MinIO and Redis clients cost a process about 60 MB of memory (measured: 30, 27 and
 * 6 MB), which an embedded server, the admin CLI and the content workers never use. `require` rather than
 * `import()`: each library then has one instance whichever loader asks (the test runner's included), so its error
 * classes are the ones `instanceof` checks meet, and the functions below stay synchronous.
 */
const load = createRequire(import.meta.url);

export const elasticsearchLibrary = (): typeof Elasticsearch => load('@elastic/elasticsearch') as typeof Elasticsearch;
export const minioLibrary = (): typeof Minio => load('minio') as typeof Minio;
export const ioredisLibrary = (): typeof IORedis => load('ioredis') as typeof IORedis;
