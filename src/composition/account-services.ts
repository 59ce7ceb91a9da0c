// The dashboard's services (people, sessions, team, invitations, API keys, audit), wired once for the server and the admin CLI.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Backend } from '../storage/ports.js';
import type { WorkspaceService } from '../services/accounts/workspaces.js';
import { AuditLog } from '../services/accounts/audit-log.js';
import { SessionService } from '../services/accounts/sessions.js';
import { SignInThrottle } from '../services/accounts/sign-in-throttle.js';
import { PasswordHasher } from '../services/accounts/passwords.js';
import { PeopleService } from '../services/accounts/people.js';
import { MemberService } from '../services/accounts/members.js';
import { InvitationService } from '../services/accounts/invitations.js';
import { ApiKeyService } from '../services/accounts/api-keys.js';
import { DeviceTokens } from '../services/accounts/device-tokens.js';
import { OperatorMembers } from '../services/accounts/operator-members.js';

export interface AccountServices {
  audit: AuditLog;
  sessions: SessionService;
  people: PeopleService;
  members: MemberService;
  invitations: InvitationService;
  apiKeys: ApiKeyService;
  operatorMembers: OperatorMembers;
}

export function buildAccountServices(backend: Backend, config: Config, workspaces: WorkspaceService, now: () => Date = () => new Date()): AccountServices {
  const audit = new AuditLog(backend.accounts, now);
  const sessions = new SessionService(backend.accounts, backend.metadata, { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours }, now);
  const throttle = new SignInThrottle(backend.rateLimiter, config.connections.ipv6PrefixBits);
  const hasher = new PasswordHasher(config.connections.ipv6PrefixBits);
  // One signing secret for every node, so a browser known to one is known to all.
  const devices = new DeviceTokens(() => backend.metadata.secret('device-token-signing', () => randomBytes(32).toString('hex')), now);
  const people = new PeopleService(backend.accounts, backend.metadata, sessions, throttle, hasher, audit, devices, config.passwordLinkTtlHours, now);
  return {
    audit,
    sessions,
    people,
    members: new MemberService(backend.accounts, sessions, audit),
    invitations: new InvitationService(backend.accounts, backend.metadata, workspaces, throttle, hasher, audit, config.invitationTtlHours, now),
    apiKeys: new ApiKeyService(backend.metadata, workspaces, audit, now),
    operatorMembers: new OperatorMembers(backend.metadata, workspaces, people, audit),
  };
}
