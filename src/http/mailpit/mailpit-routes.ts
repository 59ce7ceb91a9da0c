// The Mailpit API's handlers, one per operation of mailpit-api.yaml, on the same services as the /v1 API, each held to
// the one inbox its request authenticated to.
import { AppError } from '../../errors.js';
import { CHAOS_CODES, type ChaosStage } from '../../domain/chaos.js';
import type { MessageRecord } from '../../domain/types.js';
import type { components as SandboxComponents } from '../../contract/api-types.js';
import type { components } from '../../contract/mailpit-api-types.js';
import { matchAll, type QueryNode } from '../../query/ast.js';
import { parseMailpitSearch } from '../../query/mailpit-search.js';
import { fromMailpitSend, MailpitSendRefusal, type MailpitSendRequest } from '../../mime/mailpit-send.js';
import type { MessageService } from '../../services/mail/messages.js';
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { MailboxSelection, MailboxService } from '../../services/mail/mailbox.js';
import type { InboxChaosService } from '../../services/mail/inbox-chaos.js';
import type { SendService } from '../../services/capture/send.js';
import type { FileServingTurns } from '../../services/files/file-serving-turns.js';
import type { MessageCheckRunner } from '../../services/checks/check-runner.js';
import type { messageChecks } from '../../services/checks/message-checks.js';
import { attachmentReply, htmlReply, rawTextReply, textReply, thumbnailReply } from '../routes/file-replies.js';
import { appInformationJson, chaosTriggersJson, headersJson, htmlCheckJson, linkCheckJson, messageJson, messagesSummaryJson, webUiJson } from './mailpit-presenters.js';
import type { MailpitAccess } from './mailpit-auth.js';
import type { MailpitHandlerTable, MailpitRequest } from './mailpit-router.js';

type Schemas = components['schemas'];
type SandboxSchemas = SandboxComponents['schemas'];
type ChaosTriggerInput = Schemas['ChaosTriggerInput'];

export interface MailpitServices {
  messages: MessageService;
  content: MessageContentService;
  mailbox: MailboxService;
  chaos: InboxChaosService;
  send: SendService;
  turns: FileServingTurns;
  checks: ReturnType<typeof messageChecks>;
  checkRunner: MessageCheckRunner;
  /** This server's version, where Mailpit reports its own. */
  version: string;
  /** Seconds since the server started. */
  uptimeSeconds: () => number;
}

/** Mailpit's reading of start and limit: a number of at least 0 (limit) or above 0 (start), else the default. */
function count(value: string | undefined, fallback: number, least: number): number {
  const number = value === undefined || !/^\s*-?\d+\s*$/.test(value) ? NaN : Number(value);
  return Number.isSafeInteger(number) && number >= least ? number : fallback;
}

const OK = { text: 'ok' } as const;

export function mailpitHandlers(services: MailpitServices): MailpitHandlerTable {
  const { messages, content, mailbox, chaos, turns, checks, checkRunner } = services;
  const [htmlCheck, linkCheck, spamCheck] = checks;

  /** A search in Mailpit's language; one that is blank selects nothing to narrow by. */
  const searchOf = (query: string | undefined, tz: string | undefined): QueryNode | null => {
    if (query === undefined || query.trim() === '') return null;
    return parseMailpitSearch(query, tz === undefined ? {} : { tz });
  };

  /** Mailpit's required `query`, as it words its absence. */
  const requiredSearch = (request: MailpitRequest): QueryNode => {
    const filter = searchOf(request.query.query, request.query.tz);
    if (filter === null) throw new AppError('invalid_request', 'Error: no search query');
    return filter;
  };

  /** The message the path names: one of this inbox's, or `latest`, the newest (matching `query` when given). */
  const messageOf = async ({ access, params, query }: MailpitRequest): Promise<MessageRecord> => {
    const { workspace, inbox } = access;
    if (params.ID !== 'latest') return messages.requireInInbox(workspace.id, inbox.id, params.ID!);
    const filter = searchOf(query.query, query.tz);
    return messages.latest(workspace.id, inbox.id, filter ?? matchAll(), filter !== null);
  };

  /** The attachment the path's PartID names, by its position; any other PartID names none. */
  const partOf = (record: MessageRecord, partId: string): number => {
    if (!/^\d{1,6}$/.test(partId)) throw new AppError('not_found', `message ${record.id} has no part '${partId}' (parts are numbered 0, 1, ... among its attachments)`);
    return Number(partId);
  };

  const detailOf = (access: MailpitAccess, record: MessageRecord) => turns.serve(access.workspace.id, () => content.detail(access.workspace.id, record.id));

  const tagNames = async (access: MailpitAccess) => [...(await mailbox.tagCounts(access.workspace.id, access.inbox.id)).keys()].sort();

  const checked = async (request: MailpitRequest) => ({ workspaceId: request.access.workspace.id, id: (await messageOf(request)).id });

  return {
    mailpitInfo: async ({ access }) => {
      const { inbox } = await mailbox.page(access.workspace.id, access.inbox.id, null, 0, 0);
      const tags = await mailbox.tagCounts(access.workspace.id, access.inbox.id);
      return { json: appInformationJson(access.inbox, inbox, tags, services.version, services.uptimeSeconds()) };
    },
    mailpitWebUi: async ({ access }) => ({ json: webUiJson(access.inbox, spamCheck.notConfigured === null) }),

    mailpitListMessages: async ({ access, query }) => {
      const start = count(query.start, 0, 1);
      const page = await mailbox.page(access.workspace.id, access.inbox.id, null, start, count(query.limit, 50, 0));
      return { json: messagesSummaryJson(page, start, await tagNames(access)) };
    },
    mailpitSearch: async (request) => {
      const { access, query } = request;
      const filter = requiredSearch(request);
      const start = count(query.start, 0, 1);
      const page = await mailbox.page(access.workspace.id, access.inbox.id, filter, start, count(query.limit, 50, 0));
      return { json: messagesSummaryJson(page, start, await tagNames(access)) };
    },
    mailpitSetReadStatus: async ({ access, query, body }) => {
      const { Read = false, IDs, Search } = (body ?? {}) as { Read?: boolean; IDs?: string[] | null; Search?: string };
      const filter = searchOf(Search, query.tz);
      if (IDs?.length && filter !== null) throw new AppError('invalid_request', 'You may specify either IDs or a search query, not both');
      const selection: MailboxSelection = IDs?.length ? { ids: IDs } : filter !== null ? { filter } : { all: true };
      await mailbox.setRead(access.workspace.id, access.inbox.id, selection, Read);
      return OK;
    },
    mailpitDeleteMessages: async ({ access, body }) => {
      const { IDs } = (body ?? {}) as { IDs?: string[] | null };
      await mailbox.delete(access.workspace.id, access.inbox.id, IDs?.length ? { ids: IDs } : { all: true });
      return OK;
    },
    mailpitDeleteSearch: async (request) => {
      await mailbox.delete(request.access.workspace.id, request.access.inbox.id, { filter: requiredSearch(request) });
      return OK;
    },

    mailpitGetMessage: async (request) => {
      const { access } = request;
      const detail = await detailOf(access, await messageOf(request));
      // Reading a message in Mailpit marks it read, and its clients count on that; a read key changes nothing, even so.
      if (access.access === 'read_write') await messages.setRead(access.workspace.id, detail.record.id, true);
      return { json: messageJson(detail) };
    },
    mailpitGetHeaders: async (request) => ({ json: headersJson((await detailOf(request.access, await messageOf(request))).headers) }),
    mailpitGetRaw: async (request) => {
      const record = await messageOf(request);
      const raw = await turns.serve(request.access.workspace.id, () => content.raw(request.access.workspace.id, record.id));
      return rawTextReply(raw, request.query.dl === '1' ? `${record.id}.eml` : null);
    },
    mailpitGetPart: async (request) => {
      const record = await messageOf(request);
      const index = partOf(record, request.params.PartID!);
      return attachmentReply(await turns.serve(request.access.workspace.id, () => content.attachment(request.access.workspace.id, record.id, index)));
    },
    mailpitGetThumbnail: async (request) => {
      const record = await messageOf(request);
      const index = partOf(record, request.params.PartID!);
      return thumbnailReply(await turns.serve(request.access.workspace.id, () => content.thumbnail(request.access.workspace.id, record.id, index)));
    },
    mailpitHtmlCheck: async (request) => {
      const record = await messageOf(request);
      // Mailpit answers a message without HTML as bad input, where /v1 says the HTML is not there.
      if (!record.hasHtml) throw new AppError('invalid_request', `message ${record.id} has no HTML part to check`);
      return { json: htmlCheckJson(htmlCheck.present(await checkRunner.run(htmlCheck, record.workspaceId, record.id, {}, request.signal))) };
    },
    mailpitLinkCheck: async (request) => {
      const follow = ['true', '1'].includes((request.query.follow ?? '').toLowerCase());
      const { workspaceId, id } = await checked(request);
      return { json: linkCheckJson(linkCheck.present(await checkRunner.run(linkCheck, workspaceId, id, { follow, skip_one_time: false }, request.signal))) };
    },
    mailpitSpamCheck: async (request) => {
      // Mailpit without SpamAssassin has no such route.
      if (spamCheck.notConfigured !== null) throw new AppError('not_found', `the spam check is not available: ${spamCheck.notConfigured}`);
      try {
        const { workspaceId, id } = await checked(request);
        const verdict = spamCheck.present(await checkRunner.run(spamCheck, workspaceId, id, {}, request.signal));
        return { json: { Error: '', IsSpam: verdict.IsSpam, Score: verdict.Score, Rules: verdict.Rules } satisfies Schemas['SpamAssassinResponse'] };
      } catch (error) {
        // Mailpit reports a spamd it could not ask in the answer's Error, not as a failed request.
        if (!(error instanceof AppError && error.code === 'spam_engine_unavailable')) throw error;
        return { json: { Error: error.message, IsSpam: false, Score: 0, Rules: [] } satisfies Schemas['SpamAssassinResponse'] };
      }
    },
    mailpitRelease: async (request) => {
      await messageOf(request);
      throw new AppError('invalid_request', 'this service never sends mail onward: messages are captured here and cannot be released to a real mailbox');
    },
    mailpitSend: async ({ access, body, message }) => {
      if (message === null) throw new AppError('internal_error', 'the send body was not composed', { expose: false });
      let request: SandboxSchemas['SendRequest'];
      try {
        request = fromMailpitSend(body as MailpitSendRequest);
      } catch (error) {
        if (error instanceof MailpitSendRefusal) throw new AppError('invalid_request', error.message);
        throw error;
      }
      return { json: { ID: await services.send.send(access.workspace, access.inbox.id, request, message) } };
    },

    mailpitListTags: async ({ access }) => ({ json: await tagNames(access) }),
    mailpitSetTags: async ({ access, body }) => {
      const { IDs, Tags } = body as { IDs?: string[] | null; Tags?: string[] | null };
      await mailbox.setTags(access.workspace.id, access.inbox.id, IDs ?? [], Tags ?? []);
      return OK;
    },
    mailpitRenameTag: async ({ access, params, body }) => {
      await mailbox.renameTag(access.workspace.id, access.inbox.id, params.Tag!, (body as { Name: string }).Name);
      return OK;
    },
    mailpitDeleteTag: async ({ access, params }) => {
      await mailbox.deleteTag(access.workspace.id, access.inbox.id, params.Tag!);
      return OK;
    },

    mailpitGetChaos: async ({ access }) => ({ json: chaosTriggersJson(await chaos.get(access.workspace.id, access.inbox.id)) }),
    mailpitSetChaos: async ({ access, body }) => {
      const given = (body ?? {}) as Partial<Record<'Authentication' | 'Sender' | 'Recipient', ChaosTriggerInput>>;
      const current = await chaos.get(access.workspace.id, access.inbox.id);
      // The code is checked against the stage's list, which is what the contract's enum of each trigger's code holds.
      const trigger = <Trigger extends { probability: number; code: number }>(stage: ChaosStage, field: string, input: ChaosTriggerInput | undefined): Trigger => {
        if (input === undefined) return { probability: 0, code: current[stage].code } as Trigger;
        if (!CHAOS_CODES[stage].includes(input.ErrorCode)) {
          throw new AppError('invalid_request', `${field}.ErrorCode: ${input.ErrorCode} is not offered at this stage; use one of ${CHAOS_CODES[stage].join(', ')}`);
        }
        return { probability: input.Probability, code: input.ErrorCode } as Trigger;
      };
      const authentication = trigger<SandboxSchemas['ChaosAuthenticationTrigger']>('authentication', 'Authentication', given.Authentication);
      const sender = trigger<SandboxSchemas['ChaosSenderTrigger']>('sender', 'Sender', given.Sender);
      const recipient = trigger<SandboxSchemas['ChaosRecipientTrigger']>('recipient', 'Recipient', given.Recipient);
      const { connection, data, disconnect, delay } = current;
      const anything = [authentication, sender, recipient, connection, data, disconnect, delay].some((setting) => setting.probability > 0);
      const settings = await chaos.replace(access.workspace.id, access.inbox.id, { enabled: anything, connection, authentication, sender, recipient, data, disconnect, delay });
      return { json: chaosTriggersJson(settings) };
    },

    mailpitViewHtml: async (request) => {
      const record = await messageOf(request);
      if (!record.hasHtml) throw new AppError('not_found', `message ${record.id} has no HTML part`);
      return htmlReply(await turns.serve(record.workspaceId, () => content.renderHtml(record)), 0);
    },
    mailpitViewText: async (request) => {
      const record = await messageOf(request);
      return textReply(await turns.serve(record.workspaceId, () => content.renderText(record)));
    },
  };
}
