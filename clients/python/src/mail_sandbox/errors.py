"""The errors the client raises: MailSandboxError for every refusal the API answers, and its kinds for the waits."""

from __future__ import annotations

import email.utils
import time
from typing import Any

import requests

from .explain import explanation_table
from .types import MessageDetail, WaitExplanation


class MailSandboxError(Exception):
    """A request the API refused, or a wait that ended without what it waited for.

    Switch on `code` (the API's stable error code, e.g. ``not_found``, ``wait_timeout``, ``read_only_key``), never on
    the message, whose wording can change. ``unexpected_response`` is the client's own code for an answer that is not
    the API's error envelope (a proxy's error page, say).
    """

    def __init__(
        self,
        code: str,
        status: int,
        message: str,
        *,
        explain: WaitExplanation | None = None,
        found: MessageDetail | None = None,
        retry_after: float | None = None,
        request_id: str | None = None,
        inbox_id: str | None = None,
    ) -> None:
        super().__init__(code, status, message)
        self.code = code
        """The envelope's `error.code`."""
        self.status = status
        """The HTTP status of the answer (404 for a wait that timed out on the client's own deadline too)."""
        self.message = message
        """The server's (or the client's) message alone, without the explanation's table."""
        self.explain = explain
        """For ``wait_timeout``: the filter's terms and the inbox's recent mail with the terms each failed."""
        self.found = found
        """For ``unexpected_message``: the message that came."""
        self.retry_after = retry_after
        """Seconds the server asked to wait before trying again (its Retry-After), or None."""
        self.request_id = request_id
        """The answer's X-Request-Id, which the server's log lines about the request carry."""
        self.inbox_id = inbox_id
        """For the waits: the inbox waited on."""

    def __str__(self) -> str:
        text = f"{self.code} ({self.status}): {self.message}"
        if self.explain is not None:
            text += "\n" + explanation_table(self.explain)
        if self.found is not None:
            found = self.found
            text += (
                f"\nfound: {found['id']} received {found['received_at']} from {found['from'] or found['envelope_from']}"
                f" to {', '.join(found['recipients'])}: {found['subject']!r}"
            )
        return text


class WaitTimeoutError(MailSandboxError):
    """``wait_timeout``: no matching message (or fewer than asked for) arrived in time; `explain` says what came."""


class UnexpectedMessageError(MailSandboxError):
    """``unexpected_message``: a wait for none met a matching message; `found` is it."""

    found: MessageDetail


def retry_after_of(response: requests.Response) -> float | None:
    """Retry-After in seconds: the API sends whole seconds; an HTTP date (RFC 9110 allows it) is converted."""
    header = response.headers.get("Retry-After", "").strip()
    if header == "":
        return None
    if header.isdigit():
        return float(header)
    try:
        at = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, at.timestamp() - time.time())


def error_of(response: requests.Response, inbox_id: str | None = None) -> MailSandboxError:
    """The error an answer that is not 2xx stands for, from its envelope."""
    try:
        body: Any = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        error = {}
    raw_code = error.get("code")
    code = raw_code if isinstance(raw_code, str) else "unexpected_response"
    message = error.get("message")
    if not isinstance(message, str):
        message = f"the server answered {response.status_code} {response.reason or ''}".strip()
    explain = error.get("explain") if isinstance(error.get("explain"), dict) else None
    found = error.get("found") if isinstance(error.get("found"), dict) else None
    kind = {"wait_timeout": WaitTimeoutError, "unexpected_message": UnexpectedMessageError}.get(code, MailSandboxError)
    return kind(
        code,
        response.status_code,
        message,
        explain=explain,
        found=found,
        retry_after=retry_after_of(response),
        request_id=response.headers.get("X-Request-Id"),
        inbox_id=inbox_id,
    )
