// BlobStore on the local file system: one file per key under the data dir, fsynced before put resolves.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { BlobStore } from '../ports.js';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

async function syncDirectory(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathFor(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new AppError('internal_error', `unsafe blob key '${key}'`, { expose: false });
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.pathFor(key);
    const dir = path.dirname(target);
    // Unique per write: two writers of one key (two first requests for a thumbnail) must not share a temp file.
    const temp = `${target}.${randomUUID()}.tmp`;
    try {
      const firstCreated = await fs.mkdir(dir, { recursive: true });
      const file = await fs.open(temp, 'w');
      try {
        await file.writeFile(data);
        await file.datasync();
      } finally {
        await file.close();
      }
      // Write-then-rename keeps a half-written file from ever carrying the final name. The rename is an entry of
      // dir, and each folder mkdir just made is an entry of its parent: syncing those folders makes all of it durable.
      await fs.rename(temp, target);
      const synced = [dir];
      if (firstCreated) for (let folder = path.dirname(dir); folder.length >= path.dirname(firstCreated).length; folder = path.dirname(folder)) synced.push(folder);
      for (const folder of synced) await syncDirectory(folder);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw new AppError('storage_unavailable', `cannot write blob: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathFor(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new AppError('storage_unavailable', `cannot read blob: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  }

  async listFolders(folder: string): Promise<string[]> {
    if (!folder.endsWith('/')) throw new AppError('internal_error', `blob folder '${folder}' must end with '/'`, { expose: false });
    try {
      const entries = await fs.readdir(this.pathFor(folder.slice(0, -1)), { withFileTypes: true });
      return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new AppError('storage_unavailable', `cannot list blob folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  }

  async deleteFolders(folders: string[]): Promise<void> {
    try {
      await Promise.all(folders.map((folder) => {
        if (!folder.endsWith('/')) throw new AppError('internal_error', `blob folder '${folder}' must end with '/'`, { expose: false });
        return fs.rm(this.pathFor(folder.slice(0, -1)), { recursive: true, force: true });
      }));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('storage_unavailable', `cannot delete blob folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
    }
  }
}
