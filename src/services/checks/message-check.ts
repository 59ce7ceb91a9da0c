// The seam every message check fits (ARCHITECTURE.md, "Message checks share one seam"): a check is one module that says
// its name, what it needs, how it runs within a budget and how its finding reads in the API. The checks are listed
// once (message-checks.ts), run by one runner (check-runner.ts), served by one route template
// (http/routes/message-checks.ts) and drawn by one dashboard panel, so a new check is a module and a line in a list.
import type { ContentStep } from '../../content/content-tasks.js';
import type { operations } from '../../contract/api-types.js';
import type { MessageRecord } from '../../domain/types.js';

/** What a check reads of the message, and whom it asks beyond this server. */
export interface CheckNeeds {
  /**
   * `parsed`: the message's parts, read by steps on the content workers, so a message whose analysis at capture was cut
   * short is refused (422 analysis_limit) before the check starts; `raw`: the bytes exactly as stored, nothing parsed.
   */
  message: 'parsed' | 'raw';
  /**
   * Nobody; public addresses under the target policy (links, stylesheets); SpamAssassin's spamd; or name servers alone
   * (TXT records, through the name lookups' gate).
   */
  outside: 'nobody' | 'network' | 'spamd' | 'dns';
}

/** What one run of a check may spend; its content steps have the pool's limits per task besides. */
export interface CheckBudget {
  /** Every request the check makes beyond this server (a link, a stylesheet, spamd's answer) ends within this long. */
  requestTimeoutMs: number;
  /** A larger message is refused unread (422 analysis_limit), naming the setting; null: any size the server captured. */
  maxMessageBytes: { bytes: number; setting: string } | null;
}

/** The message a check runs on: its record, and its bytes read only when the check asks for them. */
export interface CheckedMessage {
  record: MessageRecord;
  raw(): Promise<Buffer>;
  /** Runs a step on the message's bytes on a content worker, in the workspace's turn, within the limits per task. */
  inPool<Args extends unknown[], Output>(step: ContentStep<Args, Output>, ...args: Args): Promise<Output>;
}

/** What one request of a check brings: its operation's validated query, and when to stop. */
export interface CheckRun<Query> {
  query: Query;
  /** Aborted when the client goes away: work beyond this server stops, and nothing learnt in a cut-short run is kept. */
  signal: AbortSignal;
  budget: CheckBudget;
}

export interface MessageCheck<Query, Finding, Json, OperationId extends string = string> {
  /** The last segment of its path in openapi.yaml, GET /v1/messages/{id}/<name>. */
  readonly name: string;
  /** Its operation in openapi.yaml, which the route template serves and whose 200 `data` the presenter makes. */
  readonly operationId: OperationId;
  /** What refusals call it ("the spam check takes messages of at most ..."). */
  readonly title: string;
  readonly needs: CheckNeeds;
  readonly budget: CheckBudget;
  /** Why it cannot run on this server at all (400 not_configured, before the message is read); null when it can. */
  readonly notConfigured: string | null;
  /** Never marks the message read. Refusals are AppErrors from the one table of codes. */
  run(message: CheckedMessage, run: CheckRun<Query>): Promise<Finding>;
  /** The finding as the API answers it: the `data` of its operation's 200 response. */
  present(finding: Finding): Json;
}

/** Any check, as the list holds it: the route template recovers each one's types from its operation. */
export type AnyMessageCheck = MessageCheck<never, unknown, unknown>;

/** The `data` of an operation's 200 answer: what a check's presenter returns. */
export type OperationData<Op extends keyof operations> =
  operations[Op]['responses'] extends { 200: { content: { 'application/json': { data: infer Data } } } } ? Data : never;
