// The storage backends every contract suite runs against; a new profile adds its factory here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openBackend } from '../../src/storage/index.js';
import type { Backend } from '../../src/storage/ports.js';

export interface BackendUnderTest {
  backend: Backend;
  dispose(): Promise<void>;
}

export const backendFactories: { profile: string; open(): Promise<BackendUnderTest> }[] = [
  {
    profile: 'embedded',
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-contract-'));
      const backend = await openBackend(loadConfig({ SANDBOX_DATA_DIR: dataDir }));
      return {
        backend,
        async dispose() {
          await backend.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];
