// API keys: resolving a bearer key to its workspace and access, and the dashboard's list, create and revoke.
import { AppError } from '../../errors.js';
import { API_KEY_PREFIX, hashSecret } from '../../domain/secrets.js';
import type { Access, ApiKeyRecord } from '../../domain/types.js';
import type { MetadataStore } from '../../storage/ports.js';
import type { AuditLog } from './audit-log.js';
import type { KeyPrincipal, SessionPrincipal } from './principal.js';
import type { WorkspaceService } from './workspaces.js';

/** lastUsedAt is kept to the minute: at most one write a minute per key, however busy it is. */
const TOUCH_EVERY_MS = 60_000;

export async function authenticateApiKey(metadata: MetadataStore, authorization: string | undefined, now: Date = new Date()): Promise<KeyPrincipal> {
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
  if (record.lastUsedAt === null || now.getTime() - record.lastUsedAt.getTime() >= TOUCH_EVERY_MS) await metadata.touchApiKey(record.id, now);
  return { kind: 'key', workspace, keyId: record.id, access: record.access };
}

export class ApiKeyService {
  constructor(
    private readonly metadata: MetadataStore,
    private readonly workspaces: WorkspaceService,
    private readonly audit: AuditLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(workspaceId: string): Promise<ApiKeyRecord[]> {
    return this.metadata.listApiKeys(workspaceId);
  }

  async create(actor: SessionPrincipal, access: Access, name: string | null): Promise<{ record: ApiKeyRecord; key: string }> {
    const issued = await this.workspaces.issueKey(actor.workspace.id, access, name);
    await this.audit.record(actor.workspace.id, actor.person.email, 'api_key.created', issued.record.id, { access, name });
    return issued;
  }

  async revoke(actor: SessionPrincipal, id: string): Promise<void> {
    if (!(await this.metadata.revokeApiKey(id, this.now(), actor.workspace.id))) throw new AppError('not_found', `no API key with id '${id}'`);
    await this.audit.record(actor.workspace.id, actor.person.email, 'api_key.revoked', id);
  }
}
