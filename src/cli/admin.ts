// Admin CLI for what the spec keeps dashboard-only: workspaces, plans, members, API keys; and bulk import of mail.
// Works on the same data as a running server; JSON on stdout with --json, errors on stderr, non-zero exit.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ConfigError, linkBaseUrl, loadConfig, type Config } from '../config.js';
import { AppError } from '../errors.js';
import { createLogger } from '../logger.js';
import { openBackend } from '../storage/index.js';
import { WorkspaceService } from '../services/accounts/workspaces.js';
import { buildCaptureServices } from '../composition/capture-services.js';
import { buildAccountServices } from '../composition/account-services.js';
import { describeAccount } from '../services/accounts/operator-members.js';
import { contentPoolFor } from '../content/content-pool.js';
import { assertPathsExist, findInbox, importMessages, importSummaryText } from './import-messages.js';
import type { Access, MemberRole } from '../domain/types.js';
import { ADMIN_USAGE } from './command-usage.js';

class UsageError extends Error {}

const ACCESS: Access[] = ['read', 'read_write'];
const ROLES: MemberRole[] = ['owner', 'admin', 'member'];

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--${name} must be a positive integer, got '${value}'`);
  return Number(value);
}

/** Messages the import keeps in the pipeline at once: enough for group commits to fill, few enough to bound memory. */
const IMPORT_CONCURRENCY = 32;

async function runImport(config: Config, values: Record<string, string | boolean | undefined>, paths: string[]): Promise<{ json: unknown; text: string }> {
  const inboxId = required(values, 'inbox');
  const concurrency = positiveInt(values.concurrency as string | undefined, IMPORT_CONCURRENCY, 'concurrency');
  await assertPathsExist(paths);
  // stdout carries the summary alone, so the pipeline's log lines go to stderr.
  const log = createLogger(config.logLevel, pino.destination(2));
  const backend = await openBackend(config, { onError: (error, context) => log.warn({ err: error }, `${context} failed`) });
  const contentPool = contentPoolFor(config);
  try {
    // No delivery worker runs here: queued webhook deliveries are the servers' to send.
    const { workspaces, inboxes, pipeline } = buildCaptureServices(backend, config, contentPool, log, () => undefined);
    const inbox = await findInbox(workspaces, inboxes, inboxId);
    const summary = await importMessages(pipeline, inbox, paths, {
      maxMessageBytes: config.maxMessageBytes,
      maxRecipients: config.maxRecipients,
      concurrency,
      progressEveryMs: 1000,
      onProgress: ({ imported, refused, rate }) => process.stderr.write(`import: ${imported} imported, ${refused} refused, ${Math.round(rate)} msg/s\n`),
    });
    await pipeline.drain();
    return { json: summary, text: importSummaryText(summary) };
  } finally {
    await contentPool.close();
    await backend.close();
  }
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got '${value}'`);
  return value as T;
}

async function run(argv: string[]): Promise<{ json: unknown; text: string }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      workspace: { type: 'string' },
      access: { type: 'string' },
      id: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'trust-account': { type: 'boolean' },
      inbox: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === '') throw new UsageError('');
  const config = loadConfig();
  if (positionals[0] === 'import') return runImport(config, values, positionals.slice(1));
  const backend = await openBackend(config);
  const workspaces = new WorkspaceService(backend.metadata, backend.captures, config.plans);
  try {
    switch (command) {
      case 'workspace create': {
        const { workspace, key } = await workspaces.createWorkspace(required(values, 'name'), values.plan ?? config.defaultPlan);
        return {
          json: { workspace: { id: workspace.id, name: workspace.name }, key },
          text: `workspace ${workspace.id} (${workspace.name}, plan ${workspace.planName})\nAPI key (shown once): ${key.key}`,
        };
      }
      case 'workspace list': {
        const list = await workspaces.listWorkspaces();
        return {
          json: list.map((w) => ({ id: w.id, name: w.name, plan: w.planName, created_at: w.createdAt.toISOString() })),
          text: list.map((w) => `${w.id}\t${w.planName}\t${w.name}`).join('\n'),
        };
      }
      case 'key create': {
        const key = await workspaces.createKey(required(values, 'workspace'), oneOf(required(values, 'access'), ACCESS, 'access'));
        return { json: key, text: `API key ${key.id} (${key.access}, shown once): ${key.key}` };
      }
      case 'key revoke': {
        const id = required(values, 'id');
        await workspaces.revokeKey(id);
        return { json: { id, revoked: true }, text: `API key ${id} revoked` };
      }
      case 'plan set': {
        const workspace = await workspaces.setPlan(required(values, 'workspace'), required(values, 'plan'));
        return { json: { workspace: { id: workspace.id, name: workspace.name, plan: workspace.planName } }, text: `workspace ${workspace.id} is on plan ${workspace.planName}` };
      }
      case 'plan list': {
        const plans = Object.values(config.plans).map((p) => ({
          name: p.name,
          monthly_limit: p.monthlyLimit,
          retention_days: p.retentionDays,
          member_limit: p.memberLimit,
          inbox_limit: p.inboxLimit,
          webhook_limit: p.webhookLimit,
          requests_per_second: p.requestsPerSecond,
          tag_rule_limit: p.tagRuleLimit,
        }));
        return { json: plans, text: plans.map((p) => JSON.stringify(p)).join('\n') };
      }
      case 'member add': {
        const role = oneOf(required(values, 'role'), ROLES, 'role');
        const { operatorMembers } = buildAccountServices(backend, config, workspaces);
        const added = await operatorMembers.add(required(values, 'workspace'), required(values, 'email'), role, { trustAccount: values['trust-account'] === true },
          linkBaseUrl(config, config.httpPort));
        const { link, account: { person } } = added;
        return {
          json: {
            workspace_id: added.workspace.id,
            email: added.email,
            role,
            account: {
              made_by: person.origin.kind,
              made_at: person.createdAt.toISOString(),
              made_now: added.account.madeNow,
              invited_to_workspace_id: person.origin.kind === 'invitation' ? person.origin.workspaceId : null,
              invited_by: person.origin.kind === 'invitation' ? person.origin.invitedBy : null,
              password_set_at: person.passwordHash === null ? null : person.passwordChangedAt?.toISOString() ?? null,
              proved_at: person.provedAt?.toISOString() ?? null,
            },
            set_password_url: link?.url ?? null,
            expires_at: link?.expiresAt.toISOString() ?? null,
          },
          text: `${added.email} added to ${added.workspace.id} as ${role}. ${describeAccount(added.account)}`
            + (link ? `.\nOpen this link to set their password (shown once, until ${link.expiresAt.toISOString()}):\n${link.url}` : '; they sign in with it'),
        };
      }
      case 'member password': {
        const email = required(values, 'email');
        const { people } = buildAccountServices(backend, config, workspaces);
        const link = await people.passwordLinkFor(email, linkBaseUrl(config, config.httpPort));
        return {
          json: { email: email.toLowerCase(), set_password_url: link.url, expires_at: link.expiresAt.toISOString() },
          text: `open this link to set the password of ${email.toLowerCase()} (shown once, until ${link.expiresAt.toISOString()}):\n${link.url}`,
        };
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } finally {
    await backend.close();
  }
}

const argv = process.argv.slice(2);
run(argv).then(
  (result) => {
    process.stdout.write(`${argv.includes('--json') ? JSON.stringify(result.json) : result.text}\n`);
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message ? `admin: ${(error as Error).message}\n\n` : ''}${ADMIN_USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError || error instanceof AppError) {
      process.stderr.write(`admin: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`admin: unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
