// The storage backends every contract suite runs against; a new profile adds its factory here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openBackend, type BackendTuning } from '../../src/storage/index.js';
import type { Backend } from '../../src/storage/ports.js';

export interface BackendUnderTest {
  backend: Backend;
  dispose(): Promise<void>;
}

interface BackendFactory {
  profile: string;
  open(): Promise<BackendUnderTest>;
}

function embedded(profile: string, tuning: BackendTuning = {}): BackendFactory {
  return {
    profile,
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-contract-'));
      const backend = await openBackend(loadConfig({ SANDBOX_DATA_DIR: dataDir }), tuning);
      return {
        backend,
        async dispose() {
          await backend.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

export const backendFactories: BackendFactory[] = [embedded('embedded')];

/** Every query plan a backend can choose, forced one at a time, for the suites about search results. */
export const searchPlanFactories: BackendFactory[] = [
  ...backendFactories,
  embedded('embedded, pages always walk the inbox', { embeddedSearch: { indexDrivenBelow: 0 } }),
  embedded('embedded, pages always start from index hits', { embeddedSearch: { indexDrivenBelow: Number.MAX_SAFE_INTEGER } }),
];
