"""mail-sandbox's Python client and pytest plugin: inboxes, search, waits for a message, its code or link, N messages
or none, webhook verification, and fixtures that give each test an inbox of its own."""

from .client import InboxRef, MailSandbox, MessageRef, Since, iso_time, parse_time
from .errors import MailSandboxError, UnexpectedMessageError, WaitTimeoutError
from .explain import explanation_table
from .types import (
    Inbox,
    InboxMark,
    InboxWithCredentials,
    MessageDetail,
    MessagePage,
    MessageSummary,
    SmtpSettings,
    WaitExplanation,
    WebhookEvent,
)
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "Inbox",
    "InboxMark",
    "InboxRef",
    "InboxWithCredentials",
    "MailSandbox",
    "MailSandboxError",
    "MessageDetail",
    "MessagePage",
    "MessageRef",
    "MessageSummary",
    "Since",
    "SmtpSettings",
    "UnexpectedMessageError",
    "WaitExplanation",
    "WaitTimeoutError",
    "WebhookEvent",
    "WebhookVerificationError",
    "explanation_table",
    "iso_time",
    "parse_time",
    "verify_webhook",
]
