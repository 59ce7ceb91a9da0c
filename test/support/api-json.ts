// Short names for the JSON shapes the tests read, taken from the types generated from openapi.yaml.
import type { components, operations } from '../../src/contract/api-types.js';

type Schemas = components['schemas'];

export type WorkspaceJson = Schemas['Workspace'];
export type UsageJson = Schemas['Usage'];
export type InboxJson = Schemas['Inbox'];
export type InboxWithCredentialsJson = Schemas['InboxWithCredentials'];
export type MessageSummaryJson = Schemas['MessageSummary'];
export type MessageDetailJson = Schemas['MessageDetail'];
export type MessageCountJson = Schemas['MessageCount'];
export type TagJson = Schemas['Tag'];
export type TagRuleJson = Schemas['TagRule'];
export type BatchResultJson = Schemas['BatchResult'];
export type WebhookJson = Schemas['Webhook'];
export type WebhookWithSecretJson = Schemas['WebhookWithSecret'];
export type DeliveryJson = Schemas['Delivery'];
export type WebhookMessageReceivedEventJson = Schemas['WebhookMessageReceivedEvent'];
export type WebhookTestEventJson = Schemas['WebhookTestEvent'];
export type ErrorEnvelopeJson = Schemas['ErrorEnvelope'];
export type SpamCheckJson = Schemas['SpamCheck'];
export type HtmlCheckJson = Schemas['HtmlCheck'];
export type HtmlCheckWarningJson = Schemas['HtmlCheckWarning'];
export type StreamResetJson = Schemas['StreamReset'];

/** The whole JSON body an operation answers with a status, envelope included. */
export type ResponseJson<Op extends keyof operations, Status extends keyof operations[Op]['responses'] = 200 & keyof operations[Op]['responses']> =
  operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

export type MeJson = Schemas['Me'];
export type MemberJson = Schemas['Member'];
export type InvitationJson = Schemas['Invitation'];
export type InvitationWithLinkJson = Schemas['InvitationWithLink'];
export type InvitationPreviewJson = Schemas['InvitationPreview'];
export type ApiKeyJson = Schemas['ApiKey'];
export type ApiKeyWithSecretJson = Schemas['ApiKeyWithSecret'];
export type SessionInfoJson = Schemas['SessionInfo'];
export type PlanWithUsageJson = Schemas['PlanWithUsage'];
export type AuditEntryJson = Schemas['AuditEntry'];
