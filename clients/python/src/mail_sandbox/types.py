"""The API's JSON shapes (openapi.yaml's schemas) as TypedDicts: the client returns the API's data as it came."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Union

# Keys such as "from" are Python keywords, so those shapes use TypedDict's functional form. Optional keys live in a
# `total=False` base, which works on Python 3.10 (typing.NotRequired is 3.11's).

Inbox = TypedDict(
    "Inbox",
    {
        "id": str,
        "name": str,
        "smtp_username": str,
        "message_count": int,
        "unread_count": int,
        "chaos_enabled": bool,
        "created_at": str,
    },
)


class _SmtpSettingsOptional(TypedDict, total=False):
    note: str


class SmtpSettings(_SmtpSettingsOptional):
    """Where to send mail to an inbox: `ports` is the STARTTLS-capable port first, then the implicit-TLS one."""

    host: str
    ports: list[int]
    username: str
    password: str


class InboxWithCredentials(Inbox):
    """An inbox as created: with its SMTP settings, whose password is shown only in this answer."""

    smtp: SmtpSettings


class OneTimeCode(TypedDict):
    value: str
    source: Literal["subject", "text", "html"]
    context: str


class LinkDetail(TypedDict):
    url: str
    text: str
    source: Literal["html", "text"]


class _AttachmentOptional(TypedDict, total=False):
    thumb_url: str


class Attachment(_AttachmentOptional):
    index: int
    filename: str
    content_type: str
    size: int
    url: str


_MessageSummaryRequired = TypedDict(
    "_MessageSummaryRequired",
    {
        "id": str,
        "inbox_id": str,
        "received_at": str,
        "envelope_from": str,
        "recipients": list[str],
        "from": str,
        "to": str,
        "subject": str,
        "message_id": str,
        "size": int,
        "has_text": bool,
        "has_html": bool,
        "attachment_count": int,
        "link_count": int,
        "snippet": str,
        "tls": bool,
        "read": bool,
        "tags": list[str],
    },
)


class MessageSummary(_MessageSummaryRequired, total=False):
    """A message as lists show it."""

    parse_error: str


class _MessageFiles(TypedDict, total=False):
    html: str


class MessageFiles(_MessageFiles):
    """Signed, expiring links that open without an API key."""

    raw: str
    attachments: list[str]
    thumbnails: list[str]
    expires_at: str


class _MessageDetailOptional(TypedDict, total=False):
    text: str
    html: str
    truncated: list[Literal["text", "html", "headers", "links"]]
    headers: dict[str, list[str]]
    html_url: str
    list_unsubscribe: dict[str, Any]


class MessageDetail(MessageSummary, _MessageDetailOptional):
    """One message with its bodies, headers, links, one-time codes (best first) and attachments."""

    links: list[str]
    link_details: list[LinkDetail]
    codes: list[OneTimeCode]
    attachments: list[Attachment]
    raw_url: str
    files: MessageFiles


class MessagePage(TypedDict):
    """A page of a message list, newest first; `next_cursor` is None on the last page."""

    messages: list[MessageSummary]
    next_cursor: str | None


class MessageCount(TypedDict):
    messages: int
    unread: int


class InboxMark(TypedDict):
    """A point in an inbox's mail by the server's clock: `since` for waits and lists, `last_event_id` for the stream."""

    since: str
    last_event_id: str


WaitExplanationMessage = TypedDict(
    "WaitExplanationMessage",
    {
        "id": str,
        "subject": str,
        "from": str,
        "recipients": list[str],
        "received_at": str,
        "failed_terms": list[str],
    },
)


class WaitExplanation(TypedDict):
    """Why a wait timed out: the filter's terms, how many matched of how many wanted, and the recent mail."""

    terms: list[str]
    matched: int
    wanted: int
    server_time: str
    recent: list[WaitExplanationMessage]


class _WorkspaceOptional(TypedDict, total=False):
    role: Literal["owner", "admin", "member"]
    access: Literal["read", "read_write"]


class Workspace(_WorkspaceOptional):
    id: str
    name: str


class DeletedMessages(TypedDict):
    deleted_messages: int


WebhookMessage = TypedDict(
    "WebhookMessage",
    {
        "id": str,
        "inbox_id": str,
        "received_at": str,
        "envelope_from": str,
        "recipients": list[str],
        "from": str,
        "to": str,
        "subject": str,
        "message_id": str,
        "size": int,
        "has_text": bool,
        "has_html": bool,
        "attachment_count": int,
        "link_count": int,
        "tls": bool,
        "read": bool,
        "tags": list[str],
    },
)
"""A delivered message's summary: no field drawn from its bodies (the rest is GET /v1/messages/{id})."""


class WebhookMessageReceivedEvent(TypedDict):
    event: Literal["message.received"]
    created_at: str
    data: WebhookMessage


class WebhookTestEventData(TypedDict):
    webhook_id: str
    message: str


class WebhookTestEvent(TypedDict):
    event: Literal["webhook.test"]
    created_at: str
    data: WebhookTestEventData


WebhookEvent = Union[WebhookMessageReceivedEvent, WebhookTestEvent]
"""The body of a webhook delivery: a captured message's summary (`message.received`), or the test event."""


class Webhook(TypedDict):
    id: str
    inbox_id: str | None
    url: str
    created_at: str


class WebhookWithSecret(Webhook):
    """A webhook as created: with the secret that signs its deliveries, shown only in this answer."""

    secret: str


class Delivery(TypedDict):
    id: int
    message_id: str
    event: Literal["message.received", "webhook.test"]
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    last_status: int | None
    last_error: str | None
    created_at: str
    finished_at: str | None
    next_attempt_at: str | None
