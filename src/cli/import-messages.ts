// `admin import`: captures .eml files, mbox files and Maildir folders into an inbox through the one ingest pipeline.
import fs from 'node:fs/promises';
import { AppError, toAppError, type ErrorCode } from '../errors.js';
import type { Inbox } from '../domain/types.js';
import type { IngestPipeline } from '../ingest/ingest-message.js';
import type { InboxService } from '../services/mail/inboxes.js';
import type { WorkspaceService } from '../services/accounts/workspaces.js';
import { readMailboxFiles } from '../mime/mailbox-files.js';
import { headerEnvelope, opensWithHeaderField } from '../mime/header-envelope.js';

export interface ImportRefusal {
  /** The file, or `file#n` for the n-th message of an mbox. */
  source: string;
  /**
   * An error code of the service (message_too_large, quota_reached, not_found, ...), or not_an_email, unreadable, or
   * why a folder's entry was not read at all: symbolic_link, not_a_regular_file (device, FIFO, socket), outside_folder.
   */
  code: string;
  message: string;
}

export interface ImportSummary {
  imported: number;
  refused: ImportRefusal[];
  /** Files met while walking folders that hold no mail (neither .eml nor mbox), so nothing is left out unsaid. */
  skipped: { source: string; reason: string }[];
  seconds: number;
  messages_per_second: number;
}

export interface ImportProgress {
  imported: number;
  refused: number;
  /** Messages imported per second since the previous report. */
  rate: number;
}

export interface ImportOptions {
  maxMessageBytes: number;
  maxRecipients: number;
  /** Messages handed to the pipeline at once, so captures finishing together can share a commit. */
  concurrency: number;
  progressEveryMs: number;
  onProgress: (progress: ImportProgress) => void;
}

/** Refusals after which every later message would be refused the same way: the import stops sending. */
const FINAL_CODES = new Set<ErrorCode>(['quota_reached', 'not_found']);

/** The admin CLI knows an inbox by id only; the workspace is whichever holds it. */
export async function findInbox(workspaces: WorkspaceService, inboxes: InboxService, inboxId: string): Promise<Inbox> {
  for (const workspace of await workspaces.listWorkspaces()) {
    const inbox = await inboxes.find(workspace.id, inboxId);
    if (inbox) return inbox;
  }
  throw new AppError('not_found', `no inbox with id '${inboxId}'`);
}

/** A named path that does not exist is a typo, refused before anything is imported (a link is looked at, not followed). */
export async function assertPathsExist(paths: string[]): Promise<void> {
  if (paths.length === 0) throw new AppError('invalid_request', 'name at least one .eml file, mbox file or folder to import');
  for (const given of paths) {
    await fs.lstat(given).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('invalid_request', `cannot read ${given}: ${error.code ?? error.message}`);
    });
  }
}

function refusalOf(source: string, error: unknown): ImportRefusal {
  const appError = toAppError(error);
  // The operator runs this on the data itself, so an internal failure's cause is theirs to see.
  const cause = appError.code === 'internal_error' && appError.cause instanceof Error ? `: ${appError.cause.message}` : '';
  return { source, code: appError.code, message: `${appError.message}${cause}` };
}

export async function importMessages(pipeline: Pick<IngestPipeline, 'ingest'>, inbox: Inbox, paths: string[], options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  let imported = 0;
  // Refusals are listed in input order, whatever order the concurrent captures finish in.
  const refused: { order: number; refusal: ImportRefusal }[] = [];
  const skipped: ImportSummary['skipped'] = [];
  // Set by a capture's outcome, read by the loop: every message after it is refused the same way.
  const stop: { refusal: { code: string; message: string } | null } = { refusal: null };
  const inFlight = new Set<Promise<void>>();
  let order = 0;

  let reportedImported = 0;
  let reportedAt = started;
  const progress = setInterval(() => {
    const now = performance.now();
    options.onProgress({ imported, refused: refused.length, rate: (imported - reportedImported) / ((now - reportedAt) / 1000) });
    reportedImported = imported;
    reportedAt = now;
  }, options.progressEveryMs);

  try {
    for await (const item of readMailboxFiles(paths, options.maxMessageBytes)) {
      if (item.kind === 'skipped') {
        skipped.push({ source: item.source, reason: item.reason });
        continue;
      }
      const position = order++;
      const refuse = (code: string, message: string) => refused.push({ order: position, refusal: { source: item.source, code, message } });
      // Waiting for a slot first means the check below also sees a final refusal that came in meanwhile.
      if (item.kind === 'message') while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
      if (stop.refusal) {
        refuse(stop.refusal.code, stop.refusal.message);
      } else if (item.kind === 'oversized') {
        refuse('message_too_large', `the message is ${item.size} bytes, over the maximum of ${options.maxMessageBytes} (SANDBOX_MAX_MESSAGE_BYTES)`);
      } else if (item.kind === 'unreadable') {
        refuse('unreadable', `cannot read: ${item.reason}`);
      } else if (item.kind === 'refused') {
        refuse(item.code, `not read: ${item.reason}`);
      } else if (!opensWithHeaderField(item.raw)) {
        refuse('not_an_email', item.raw.length === 0 ? 'the message is empty' : 'the first line is no header field, so this is not an email');
      } else {
        const { envelopeFrom, recipients } = headerEnvelope(item.raw, options.maxRecipients);
        const capture: Promise<void> = pipeline.ingest({ inbox, envelopeFrom, recipients, raw: item.raw, tls: false, channel: 'import' }).then(
          () => {
            imported++;
          },
          (error: unknown) => {
            const refusal = refusalOf(item.source, error);
            refused.push({ order: position, refusal });
            if (FINAL_CODES.has(refusal.code as ErrorCode)) stop.refusal ??= { code: refusal.code, message: refusal.message };
          },
        ).finally(() => inFlight.delete(capture));
        inFlight.add(capture);
      }
    }
  } finally {
    // Captures never reject (each records its own outcome); the caller closes the backend only after they end.
    await Promise.all(inFlight);
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    imported,
    refused: refused.sort((a, b) => a.order - b.order).map((entry) => entry.refusal),
    skipped,
    seconds: Math.round(seconds * 1000) / 1000,
    messages_per_second: seconds > 0 ? Math.round((imported / seconds) * 10) / 10 : 0,
  };
}

/** The summary for people: counts first, then each refusal and skipped file on a line of its own. */
export function importSummaryText(summary: ImportSummary): string {
  const lines = [`imported ${summary.imported} messages in ${summary.seconds} s (${summary.messages_per_second} msg/s), refused ${summary.refused.length}`];
  for (const refusal of summary.refused) lines.push(`refused\t${refusal.source}\t${refusal.code}\t${refusal.message}`);
  for (const file of summary.skipped) lines.push(`skipped\t${file.source}\t${file.reason}`);
  return lines.join('\n');
}
