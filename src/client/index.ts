// mail-sandbox/client: a typed client of the mail-sandbox HTTP API for Node (20 and later) and browsers, and the
// webhook signature check. Its only dependency is openapi-fetch.
export { MailSandbox, type InboxMark, type MailSandboxOptions, type Workspace } from './mail-sandbox.js';
export { MailSandboxError, type MailSandboxErrorCode } from './errors.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookEvent, type WebhookHeaders, type WebhookVerificationFailure } from './webhook.js';
export type { InboxRef, MessageRef } from './api.js';
export type { Inboxes, Inbox, InboxWithCredentials, CallOptions } from './inboxes.js';
export type {
  Messages, MessageSummary, MessageDetail, OneTimeCode, LinkDetail, Attachment, AttachmentContent, SendRequest, BatchRequest, BatchResult,
  ReadState, MessageCount, MessageFilters, ListOptions, MessagePage, AuthCheck,
} from './messages.js';
export type { WaitOptions, WaitForLinkOptions, WaitForMessagesOptions } from './waits.js';
export { explanationTable, type WaitExplanation } from './explain.js';
export type { InboxEvent, EventsOptions } from './inbox-events.js';
export type { FetchFunction } from './retry.js';
