"""MailSandbox, the client: inboxes, messages, webhooks, and the waits for a message, its code, its link, N of them or none."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from email.utils import parseaddr
from typing import Any, TypeVar, Union
from urllib.parse import quote

import requests

from .errors import MailSandboxError, UnexpectedMessageError, WaitTimeoutError, error_of, retry_after_of
from .types import (
    Delivery,
    DeletedMessages,
    Inbox,
    InboxMark,
    InboxWithCredentials,
    MessageCount,
    MessageDetail,
    MessagePage,
    MessageSummary,
    Webhook,
    WebhookWithSecret,
    Workspace,
)

InboxRef = Union[str, Mapping[str, Any]]
"""An inbox: its id, or the inbox itself (any mapping with an "id", such as what `inboxes.create()` returns)."""
MessageRef = Union[str, Mapping[str, Any]]
"""A message: its id, or the message itself."""
Since = Union[datetime, str]
"""A point in time: a timezone-aware datetime, or an ISO 8601 string such as a mark's `since`."""
Address = Union[str, Mapping[str, str]]
"""An address for `messages.send`: ``"alice@example.test"``, ``"Alice <alice@example.test>"`` or ``{"email", "name"}``."""

T = TypeVar("T")

# The namespaces have methods named `list`, which hide the builtin inside their class bodies.
InboxList = list[Inbox]
WebhookList = list[Webhook]
DeliveryList = list[Delivery]

DEFAULT_WAIT_SECONDS = 30.0
LONGEST_SERVER_WAIT_SECONDS = 30.0
# 429 (rate or a share exceeded) and 503 (busy, out of connections, shutting down; nothing was stored) are safe to send
# again, writes included.
_RETRIED_STATUSES = frozenset({429, 503})
# Without a Retry-After (a share is full: it frees when one of the workspace's own requests answers) the pause doubles.
_FIRST_BACKOFF_SECONDS = 1.0
_LONGEST_BACKOFF_SECONDS = 8.0
# A longer Retry-After is handed to the caller as an error rather than waited out inside a call that seems to hang.
_LONGEST_RETRY_AFTER_SECONDS = 60.0
# How much longer than the server's own wait the HTTP read may take before the client gives up on the connection.
_READ_MARGIN_SECONDS = 10.0
# The pause between retries (a test records it instead of waiting it out).
_pause = time.sleep


def _id_of(ref: InboxRef | MessageRef) -> str:
    if isinstance(ref, str):
        return ref
    value = ref.get("id")
    if not isinstance(value, str):
        raise TypeError(f"expected an id or a mapping with an 'id', got {ref!r}")
    return value


def _path_id(ref: InboxRef | MessageRef) -> str:
    return quote(_id_of(ref), safe="")


def iso_time(value: Since) -> str:
    """A point in time as the API takes it: ISO 8601 in UTC with milliseconds; strings are passed on unchanged."""
    if isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise ValueError("a datetime passed as since must be timezone-aware, e.g. datetime.now(timezone.utc)")
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(value: str) -> datetime:
    """An API time (ISO 8601 with Z), as an aware datetime; Python 3.10's fromisoformat does not read "Z"."""
    return datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)


def _filters(q: str | None, from_: str | None, to: str | None, subject: str | None, since: Since | None) -> dict[str, str]:
    given = {"q": q, "from": from_, "to": to, "subject": subject, "since": None if since is None else iso_time(since)}
    return {name: value for name, value in given.items() if value is not None}


def with_code(q: str | None) -> str:
    """`q` and ``has:code``, with `q` in parentheses so that an OR in it stays inside."""
    return "has:code" if q is None or q.strip() == "" else f"({q}) has:code"


def link_of(message: MessageDetail, match: str | re.Pattern[str] | None) -> str | None:
    """The first link, in `link_details` order (HTML first, then text), whose URL contains or matches `match`."""
    urls = [link["url"] for link in message["link_details"]] or message["links"]
    for url in urls:
        if match is None or (match in url if isinstance(match, str) else match.search(url) is not None):
            return url
    return None


def _address(value: Address) -> dict[str, str]:
    if not isinstance(value, str):
        return dict(value)
    name, email = parseaddr(value)
    if email == "":
        raise ValueError(f"not an email address: {value!r}")
    return {"email": email, "name": name} if name else {"email": email}


def _describe(what: str, q: str | None) -> str:
    return what if q is None or q.strip() == "" else f"{what} matching {q!r}"


class MailSandbox:
    """A client of a mail-sandbox service.

    Every method returns the API's data (dicts shaped as openapi.yaml's schemas, typed in `mail_sandbox.types`) and
    raises `MailSandboxError` (or its kinds `WaitTimeoutError` and `UnexpectedMessageError`) with the API's error
    `code` and HTTP `status`. A request answered 429 or 503 is sent again after its Retry-After, up to `max_retries`
    times (without one: after 1 s, 2 s, 4 s, 8 s).

    >>> sandbox = MailSandbox("http://127.0.0.1:8025", api_key)  # doctest: +SKIP
    >>> inbox = sandbox.inboxes.create()  # doctest: +SKIP
    >>> code = sandbox.wait_for_code(inbox, to="alice@example.test")  # doctest: +SKIP
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        server_wait_seconds: float = 20.0,
        session: requests.Session | None = None,
    ) -> None:
        """`timeout` bounds each plain request, in seconds. `server_wait_seconds` is how long each server-side wait
        holds (greater than 0, at most 30): a longer wait re-issues it; lower it when a proxy ends idle requests sooner.
        """
        if not 0 < server_wait_seconds <= LONGEST_SERVER_WAIT_SECONDS:
            raise ValueError(f"server_wait_seconds must be greater than 0 and at most 30, not {server_wait_seconds}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, not {max_retries}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.server_wait_seconds = server_wait_seconds
        self._session = session if session is not None else requests.Session()
        self._session.headers["Authorization"] = f"Bearer {api_key}"
        self._session.headers["Accept"] = "application/json"
        self.inboxes = Inboxes(self)
        """Inboxes: list, create (with SMTP settings), get, clear, delete."""
        self.messages = Messages(self)
        """Messages: list and search, count, get, raw source, HTML, delete, send."""
        self.webhooks = Webhooks(self)
        """Webhooks: create (with the secret), list, delete, their deliveries, a test delivery."""
        self.last_failed_wait: MailSandboxError | None = None
        """The last error a wait of this client raised (`wait_timeout` or `unexpected_message`), for test reports."""

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> MailSandbox:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- requests

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        timeout: float | None = None,
        inbox_id: str | None = None,
    ) -> requests.Response:
        """Sends one request to `path` (e.g. ``/v1/usage``), retrying 429 and 503; raises MailSandboxError unless 2xx."""
        url = self.base_url + path
        for attempt in range(self.max_retries + 1):
            response = self._session.request(method, url, params=params, json=json, timeout=timeout or self.timeout)
            if response.ok:
                return response
            retry_after = retry_after_of(response)
            last = attempt == self.max_retries
            if last or response.status_code not in _RETRIED_STATUSES or (retry_after or 0) > _LONGEST_RETRY_AFTER_SECONDS:
                raise error_of(response, inbox_id)
            response.close()
            _pause(retry_after if retry_after is not None else min(_LONGEST_BACKOFF_SECONDS, _FIRST_BACKOFF_SECONDS * 2**attempt))
        raise AssertionError("unreachable")

    def _data(self, method: str, path: str, **options: Any) -> Any:
        return self.request(method, path, **options).json()["data"]

    def workspace(self) -> Workspace:
        """The workspace the key belongs to, with the key's `access` (``read`` or ``read_write``)."""
        data: Workspace = self._data("GET", "/v1/workspace")
        return data

    # -- waits

    def mark(self, inbox: InboxRef) -> InboxMark:
        """Where the inbox stands now, by the server's clock: take it before triggering the mail a test waits for and
        pass its `since` to the waits, whatever this machine's clock says."""
        data: InboxMark = self._data("GET", f"/v1/inboxes/{_path_id(inbox)}/mark")
        return data

    def wait_for(
        self,
        inbox: InboxRef,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,
    ) -> MessageDetail:
        """The newest message that matches the filters and arrived at or after `since`, or else the first such
        message to arrive within `timeout` seconds.

        `since` defaults to the server's mark when the call starts (not this machine's clock). To catch a mail your
        application may send before the wait begins, take `mark(inbox)` before triggering it and pass its `since`.
        Raises `WaitTimeoutError` (code ``wait_timeout``) when none comes; its `explain`, shown in ``str(error)`` as a
        table, lists the inbox's recent mail and the terms of the filter each failed.
        """
        filters = _filters(q, from_, to, subject, since)
        return self._wait_for_pick(inbox, filters, timeout, lambda message: message, _describe("message", q))

    def wait_for_code(
        self,
        inbox: InboxRef,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,
    ) -> str:
        """Waits as `wait_for` does for a message that matches `q` and has a one-time code (``has:code``), and returns
        its best code's value, e.g. ``"482913"``."""
        filters = _filters(with_code(q), from_, to, subject, since)
        return self._wait_for_pick(
            inbox, filters, timeout, lambda message: message["codes"][0]["value"] if message["codes"] else None,
            _describe("message with a code", q),
        )

    def wait_for_link(
        self,
        inbox: InboxRef,
        *,
        match: str | re.Pattern[str] | None = None,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,
    ) -> str:
        """Waits as `wait_for` does for a message with a link whose URL contains `match` (a string) or matches it (a
        compiled pattern; without it, any link), and returns that URL. A match without such a link is passed over."""
        filters = _filters(q, from_, to, subject, since)
        wanted = "message with a link" + ("" if match is None else f" matching {match if isinstance(match, str) else match.pattern!r}")
        return self._wait_for_pick(inbox, filters, timeout, lambda message: link_of(message, match), _describe(wanted, q))

    def wait_for_messages(
        self,
        inbox: InboxRef,
        count: int,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        timeout: float = DEFAULT_WAIT_SECONDS,
    ) -> list[MessageDetail]:
        """Waits for `count` (1 to 50) matching messages and returns the newest `count` of them, oldest first (the
        order they arrived in). Raises `WaitTimeoutError` when fewer come; its `explain` says how many did."""
        inbox_id = _id_of(inbox)
        deadline = time.monotonic() + timeout
        filters = _filters(q, from_, to, subject, since)
        filters["since"] = self._since_of(inbox_id, filters.get("since"))
        explain = None
        while (remaining := deadline - time.monotonic()) >= 0.001:
            server_wait = self._server_wait(remaining)
            try:
                data: list[MessageDetail] = self._data(
                    "GET", f"/v1/inboxes/{quote(inbox_id, safe='')}/messages/wait-many",
                    params={**filters, "count": count, "timeout": server_wait},
                    timeout=server_wait + _READ_MARGIN_SECONDS, inbox_id=inbox_id,
                )
                return data
            except WaitTimeoutError as error:
                explain = error.explain
        matched = "" if explain is None else f" ({explain['matched']} did)"
        raise self._failed(WaitTimeoutError(
            "wait_timeout", 404,
            f"fewer than {count} {_describe('messages', q)} arrived in inbox {inbox_id} within {timeout:g} s{matched}",
            explain=explain, inbox_id=inbox_id,
        ))

    def expect_no_message(
        self,
        inbox: InboxRef,
        *,
        timeout: float,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
    ) -> None:
        """Returns once `timeout` seconds have passed with no message that matches the filters stored at or after
        `since` (default: the server's mark when the call starts); raises `UnexpectedMessageError` (code
        ``unexpected_message``) as soon as one exists or arrives, its `found` the message. For "this sends no mail"."""
        inbox_id = _id_of(inbox)
        deadline = time.monotonic() + timeout
        filters = _filters(q, from_, to, subject, since)
        filters["since"] = self._since_of(inbox_id, filters.get("since"))
        while (remaining := deadline - time.monotonic()) >= 0.001:
            server_wait = self._server_wait(remaining)
            try:
                self.request(
                    "GET", f"/v1/inboxes/{quote(inbox_id, safe='')}/messages/wait-none",
                    params={**filters, "timeout": server_wait},
                    timeout=server_wait + _READ_MARGIN_SECONDS, inbox_id=inbox_id,
                )
            except UnexpectedMessageError as error:
                raise self._failed(error) from None

    def _wait_for_pick(
        self, inbox: InboxRef, filters: dict[str, str], timeout: float, pick: Callable[[MessageDetail], T | None], looking_for: str,
    ) -> T:
        """The first thing `pick` finds in a message that matches `filters` since `since`: the newest match when there
        is one already, else the first to arrive. A match in which `pick` finds nothing is passed over for the other
        matches since `since`, then for newer ones. Each server wait holds at most `server_wait_seconds`; the next
        asks again with the same `since`, so nothing that arrives in between is missed."""
        inbox_id = _id_of(inbox)
        deadline = time.monotonic() + timeout
        filters = {**filters, "since": self._since_of(inbox_id, filters.get("since"))}
        passed_over: set[str] = set()
        explain = None
        while (remaining := deadline - time.monotonic()) >= 0.001:
            server_wait = self._server_wait(remaining)
            try:
                message: MessageDetail = self._data(
                    "GET", f"/v1/inboxes/{quote(inbox_id, safe='')}/messages/wait",
                    params={**filters, "timeout": server_wait},
                    timeout=server_wait + _READ_MARGIN_SECONDS, inbox_id=inbox_id,
                )
            except WaitTimeoutError as error:
                explain = error.explain
                continue
            found = pick(message)
            if found is not None:
                return found
            passed_over.add(message["id"])
            # The newest match has none: an older one since `since` may, and after that only newer ones can.
            older_matches = self.messages.iter(
                inbox_id, q=filters.get("q"), from_=filters.get("from"), to=filters.get("to"),
                subject=filters.get("subject"), since=filters["since"],
            )
            for summary in older_matches:
                if summary["id"] in passed_over:
                    continue
                passed_over.add(summary["id"])
                older = pick(self.messages.get(summary["id"]))
                if older is not None:
                    return older
            filters["since"] = iso_time(parse_time(message["received_at"]) + timedelta(milliseconds=1))
        seen = f" ({len(passed_over)} matching message(s) had none)" if passed_over else ""
        raise self._failed(WaitTimeoutError(
            "wait_timeout", 404, f"no {looking_for} arrived in inbox {inbox_id} within {timeout:g} s{seen}",
            explain=explain, inbox_id=inbox_id,
        ))

    def _since_of(self, inbox_id: str, since: str | None) -> str:
        """The caller's `since`, else the moment the call started by the server's clock: its mark, less the time the
        mark took to come (this machine's monotonic clock, which no offset between the two clocks touches), so that
        a mail stored while the mark was on its way is not left out."""
        if since is not None:
            return since
        started = time.monotonic()
        mark = self.mark(inbox_id)
        took = time.monotonic() - started
        return iso_time(parse_time(mark["since"]) - timedelta(seconds=took))

    def _server_wait(self, remaining: float) -> float:
        return max(0.001, round(min(self.server_wait_seconds, remaining), 3))

    def _failed(self, error: MailSandboxError) -> MailSandboxError:
        self.last_failed_wait = error
        return error


class Inboxes:
    """An inbox per test, per app, per team: each with its own SMTP username and password."""

    def __init__(self, client: MailSandbox) -> None:
        self._client = client

    def list(self) -> InboxList:
        """Every inbox of the workspace, oldest first."""
        data: InboxList = self._client._data("GET", "/v1/inboxes")
        return data

    def create(self, name: str | None = None) -> InboxWithCredentials:
        """Creates an inbox (without a `name`, a random one: names are unique in a workspace) and returns it with its
        SMTP settings (`smtp`: host, ports, username and the password, shown only here). Needs a read_write key."""
        body = {"name": name if name is not None else f"inbox-{secrets.token_hex(6)}"}
        data: InboxWithCredentials = self._client._data("POST", "/v1/inboxes", json=body)
        return data

    def get(self, inbox: InboxRef) -> Inbox:
        data: Inbox = self._client._data("GET", f"/v1/inboxes/{_path_id(inbox)}")
        return data

    def clear(self, inbox: InboxRef) -> DeletedMessages:
        """Deletes every message of the inbox, keeping the inbox and its SMTP credentials."""
        data: DeletedMessages = self._client._data("DELETE", f"/v1/inboxes/{_path_id(inbox)}/messages")
        return data

    def delete(self, inbox: InboxRef) -> DeletedMessages:
        """Deletes the inbox with all of its messages (and the webhooks scoped to it)."""
        data: DeletedMessages = self._client._data("DELETE", f"/v1/inboxes/{_path_id(inbox)}")
        return data


class Messages:
    """Captured messages: search, read, delete, and send (captured as if it came over SMTP; nothing is delivered)."""

    def __init__(self, client: MailSandbox) -> None:
        self._client = client

    def list(
        self,
        inbox: InboxRef,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> MessagePage:
        """One page of the inbox's messages, newest first, that the search selects (`q` in the query language, e.g.
        ``'subject:"Welcome" has:code'``; the other filters combine with it by AND). Pass `next_cursor` on as `cursor`
        for the next page."""
        params: dict[str, Any] = _filters(q, from_, to, subject, since)
        if limit is not None:
            params["limit"] = limit
        if cursor is not None:
            params["cursor"] = cursor
        body = self._client.request("GET", f"/v1/inboxes/{_path_id(inbox)}/messages", params=params).json()
        return {"messages": body["data"], "next_cursor": body.get("next_cursor")}

    def iter(
        self,
        inbox: InboxRef,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
        page_size: int | None = None,
    ) -> Iterator[MessageSummary]:
        """Every message the search selects, newest first, page after page."""
        cursor: str | None = None
        while True:
            page = self.list(inbox, q=q, from_=from_, to=to, subject=subject, since=since, limit=page_size, cursor=cursor)
            yield from page["messages"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def count(
        self,
        inbox: InboxRef,
        *,
        q: str | None = None,
        from_: str | None = None,
        to: str | None = None,
        subject: str | None = None,
        since: Since | None = None,
    ) -> MessageCount:
        """How many of the inbox's messages the search selects, and how many of those are unread."""
        data: MessageCount = self._client._data(
            "GET", f"/v1/inboxes/{_path_id(inbox)}/messages/count", params=_filters(q, from_, to, subject, since),
        )
        return data

    def get(self, message: MessageRef) -> MessageDetail:
        """One message with its bodies, headers, links, one-time codes and attachments."""
        data: MessageDetail = self._client._data("GET", f"/v1/messages/{_path_id(message)}")
        return data

    def raw(self, message: MessageRef) -> bytes:
        """The message's source, byte for byte as it was received (an .eml)."""
        return self._client.request("GET", f"/v1/messages/{_path_id(message)}/raw").content

    def html(self, message: MessageRef) -> str:
        """The HTML body (``cid:`` images inlined); 404 ``not_found`` when the message has none."""
        return self._client.request("GET", f"/v1/messages/{_path_id(message)}/html").text

    def delete(self, message: MessageRef) -> DeletedMessages:
        data: DeletedMessages = self._client._data("DELETE", f"/v1/messages/{_path_id(message)}")
        return data

    def send(
        self,
        inbox: InboxRef,
        *,
        from_: Address,
        to: Address | Sequence[Address],
        subject: str,
        text: str | None = None,
        html: str | None = None,
        cc: Sequence[Address] = (),
        bcc: Sequence[Address] = (),
        headers: Mapping[str, str] | None = None,
        tags: Sequence[str] = (),
    ) -> str:
        """Composes a message and captures it in the inbox as if it came over SMTP; returns its id."""
        recipients = [to] if isinstance(to, (str, Mapping)) else list(to)
        body: dict[str, Any] = {"from": _address(from_), "to": [_address(item) for item in recipients], "subject": subject}
        optional: dict[str, Any] = {
            "text": text, "html": html,
            "cc": [_address(item) for item in cc] or None, "bcc": [_address(item) for item in bcc] or None,
            "headers": dict(headers) if headers else None, "tags": list(tags) or None,
        }
        body.update({name: value for name, value in optional.items() if value is not None})
        data = self._client._data("POST", f"/v1/inboxes/{_path_id(inbox)}/send", json=body)
        message_id: str = data["id"]
        return message_id


class Webhooks:
    """Signed callbacks for arriving mail; check each delivery with `mail_sandbox.verify_webhook`."""

    def __init__(self, client: MailSandbox) -> None:
        self._client = client

    def create(self, url: str, *, inbox: InboxRef | None = None) -> WebhookWithSecret:
        """A webhook for one inbox's mail (or, without `inbox`, every inbox's), with its secret, shown only here."""
        body = {"url": url, "inbox_id": None if inbox is None else _id_of(inbox)}
        data: WebhookWithSecret = self._client._data("POST", "/v1/webhooks", json=body)
        return data

    def list(self) -> WebhookList:
        data: WebhookList = self._client._data("GET", "/v1/webhooks")
        return data

    def delete(self, webhook: str | Mapping[str, Any]) -> None:
        self._client.request("DELETE", f"/v1/webhooks/{_path_id(webhook)}")

    def deliveries(self, webhook: str | Mapping[str, Any]) -> DeliveryList:
        """The webhook's last 50 deliveries, newest first."""
        data: DeliveryList = self._client._data("GET", f"/v1/webhooks/{_path_id(webhook)}/deliveries")
        return data

    def test(self, webhook: str | Mapping[str, Any]) -> int:
        """Queues a ``webhook.test`` delivery; returns its delivery id."""
        data = self._client._data("POST", f"/v1/webhooks/{_path_id(webhook)}/test")
        delivery_id: int = data["delivery_id"]
        return delivery_id
