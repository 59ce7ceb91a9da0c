// Shapes of the JSON the API returns, one per openapi.yaml components/schemas entry (ApiClient has validated them).

/** Workspace. */
export interface WorkspaceJson {
  id: string;
  name: string;
  /** Only set for dashboard sessions; never for API keys. */
  role?: 'owner' | 'admin' | 'member';
}

/** Usage. */
export interface UsageJson {
  period_start: string;
  used: number;
  /** null means unlimited. */
  monthly_limit: number | null;
  retention_days: number;
  members: number;
  /** null means unlimited. */
  member_limit: number | null;
  inboxes: number;
}

/** Inbox. */
export interface InboxJson {
  id: string;
  name: string;
  smtp_username: string;
  message_count: number;
  created_at: string;
}

/** InboxWithCredentials: what creating an inbox or rotating its password answers. */
export interface InboxWithCredentialsJson extends InboxJson {
  smtp: {
    host: string;
    /** The STARTTLS-capable plain port first, then the implicit-TLS port. */
    ports: number[];
    username: string;
    password: string;
    note?: string;
  };
}

/** MessageSummary (MessageSummaryFields). */
export interface MessageSummaryJson {
  id: string;
  inbox_id: string;
  received_at: string;
  envelope_from: string;
  recipients: string[];
  from: string;
  to: string;
  subject: string;
  message_id: string;
  size: number;
  has_text: boolean;
  has_html: boolean;
  attachment_count: number;
  link_count: number;
  tls: boolean;
  /** Set when the message is not valid MIME. */
  parse_error?: string;
  read: boolean;
  tags: string[];
}

/** Attachment. */
export interface AttachmentJson {
  index: number;
  filename: string;
  content_type: string;
  size: number;
  url: string;
  /** Only for image attachments. */
  thumb_url?: string;
}

/** MessageDetail.files: signed, expiring links that open without an Authorization header. */
export interface MessageFilesJson {
  raw: string;
  html?: string;
  attachments: string[];
  thumbnails: string[];
  expires_at: string;
}

/** MessageDetail.list_unsubscribe. */
export interface ListUnsubscribeJson {
  header?: string;
  header_post?: string;
  links?: string[];
  errors?: string;
}

/** MessageDetail. */
export interface MessageDetailJson extends MessageSummaryJson {
  text?: string;
  html?: string;
  links: string[];
  headers?: Record<string, string[]>;
  attachments: AttachmentJson[];
  raw_url: string;
  html_url?: string;
  files: MessageFilesJson;
  list_unsubscribe?: ListUnsubscribeJson;
}

/** Tag. */
export interface TagJson {
  name: string;
  color: string;
  custom_color: boolean;
  message_count: number;
}

/** TagRule. */
export interface TagRuleJson {
  id: string;
  inbox_id: string | null;
  query: string;
  tags: string[];
  created_at: string;
}

/** BatchResult. */
export interface BatchResultJson {
  action: string;
  affected: number;
}
