// Resolves a bearer API key to its workspace and access level.
import { AppError } from '../errors.js';
import { API_KEY_PREFIX, hashSecret } from '../domain/secrets.js';
import type { Access, Workspace } from '../domain/types.js';
import type { MetadataStore } from '../storage/ports.js';

export interface Principal {
  workspace: Workspace;
  keyId: string;
  access: Access;
}

export async function authenticateApiKey(metadata: MetadataStore, authorization: string | undefined): Promise<Principal> {
  if (!authorization) throw new AppError('unauthorized', 'missing Authorization header; send "Authorization: Bearer sbx_api_..."');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new AppError('unauthorized', 'the Authorization header must be "Bearer <API key>"');
  const key = match[1]!;
  if (!key.startsWith(API_KEY_PREFIX)) throw new AppError('unauthorized', `invalid API key: keys start with ${API_KEY_PREFIX}`);
  const record = await metadata.findApiKeyByHash(hashSecret(key));
  // Unknown and revoked keys get the same answer so a revoked key reveals nothing.
  if (!record || record.revokedAt) throw new AppError('unauthorized', 'invalid or revoked API key');
  const workspace = await metadata.getWorkspace(record.workspaceId);
  if (!workspace) throw new AppError('unauthorized', 'invalid or revoked API key');
  return { workspace, keyId: record.id, access: record.access };
}
