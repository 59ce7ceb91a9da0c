// The messages between the event loop and the content workers: what a task asks for and what it answers.
// Types only, so the event loop's side never loads a MIME parser.
import type { MessageAnalysis } from '../mime/parse-email.js';
import type { HeaderSummary } from '../mime/header-summary.js';
import type { AttachmentContent, MessageParts, MessageView } from '../domain/message-view.js';
import type { MessageRecord } from '../domain/types.js';
import type { ParsedTagRule, RuleMatchOutcome } from '../query/match-rules.js';

/** Tag rules for an analysis to match against the message it parses, so their cost is the worker's, not the event loop's. */
export interface AnalyzeTagRules {
  rules: ParsedTagRule[];
  /** What the message's record takes from its envelope rather than its bytes. */
  envelope: Pick<MessageRecord, 'envelopeFrom' | 'recipients' | 'size' | 'tags' | 'receivedAt'>;
  /** Matching stops after this long; the rules not reached give no tags (SANDBOX_TAG_RULE_BUDGET_MS). */
  budgetMs: number;
}
import type { ComposedBody, SendDialect } from '../mime/compose-message.js';

interface TaskBase {
  raw: Uint8Array;
  /** One BigInt64 where the worker writes when it started (ms since the epoch), so the time limit counts running time, not queueing. */
  started: SharedArrayBuffer;
}

export type ContentTask =
  | (TaskBase & { kind: 'analyze'; tagRules?: AnalyzeTagRules })
  | (TaskBase & { kind: 'headers' })
  | (TaskBase & { kind: 'view' })
  | (TaskBase & { kind: 'html' })
  | (TaskBase & { kind: 'attachment'; index: number })
  | (TaskBase & { kind: 'renderHtml' })
  | (TaskBase & { kind: 'renderText' })
  /** A message check's step (see ContentStep): the worker imports `module` and calls its `exportName` with the bytes and `args`. */
  | (TaskBase & { kind: 'checkStep'; module: string; exportName: string; args: unknown[] })
  | (TaskBase & { kind: 'parts' })
  /** raw: a send request's JSON body, not a message. */
  | (TaskBase & { kind: 'composeMessage'; dialect: SendDialect });

/** No work: it starts a worker ahead of need (ContentPool keeps one spare while every started worker is busy). */
export interface WarmTask {
  kind: 'warm';
}

/**
 * A function of a message's bytes that a message check runs on a content worker: named by its module and export rather
 * than listed here, so that a new check brings its own work without touching the pool. `Args` and `Output` must survive
 * structured cloning.
 */
export interface ContentStep<Args extends unknown[], Output> {
  /** The module's URL, as workerFile gives it (the compiled module from dist/, the source under tsx). */
  readonly module: string;
  readonly exportName: string;
  /** Never set: it carries the function's types from where the step is declared to where it is run. */
  readonly signature?: (raw: Buffer, ...args: Args) => Output | Promise<Output>;
}

/**
 * A PNG, or why the image gets none (not a raster format on the allow-list, too many pixels, past the memory or time
 * limit, or not decodable): an answer, not a failure. Made in a thumbnail process rather than a worker (see
 * thumbnail-processes.ts). A refusal is `transient` when it says as much about the server's load as about the image:
 * past the time limit.
 */
export type ThumbnailOutcome = { thumbnail: Uint8Array } | { refused: string; transient?: true };

export interface ContentResults {
  /** `ruleTags`: what the tag rules gave, when the task carried some. */
  analyze: MessageAnalysis & { ruleTags?: RuleMatchOutcome };
  headers: HeaderSummary;
  view: MessageView;
  html: string | null;
  attachment: { attachment: AttachmentContent | null; count: number };
  renderHtml: string;
  renderText: string;
  /** Whatever the step's function answers; ContentStep carries its type to the caller. */
  checkStep: unknown;
  parts: MessageParts;
  composeMessage: ComposedBody;
}
