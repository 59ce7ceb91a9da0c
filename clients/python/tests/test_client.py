"""The client's inboxes, messages and errors against the real server, and its retries against a server that says later."""

from __future__ import annotations

import email
import email.policy
import threading
from collections.abc import Iterator
from typing import Any
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import mark_after, send
from mail_sandbox import InboxWithCredentials, MailSandbox, MailSandboxError
from sandbox_server import Server


def test_inboxes_are_created_listed_read_cleared_and_deleted(mail_sandbox: MailSandbox) -> None:
    created = mail_sandbox.inboxes.create(name="python client inbox")
    try:
        assert created["name"] == "python client inbox"
        assert created["id"].startswith("inb_")
        smtp = created["smtp"]
        assert smtp["username"] == created["smtp_username"]
        assert smtp["password"] != ""
        assert len(smtp["ports"]) == 2

        assert created["id"] in [inbox["id"] for inbox in mail_sandbox.inboxes.list()]
        assert mail_sandbox.inboxes.get(created)["name"] == "python client inbox"
        assert "smtp" not in mail_sandbox.inboxes.get(created["id"])

        send(mail_sandbox, created, "one")
        send(mail_sandbox, created, "two")
        assert mail_sandbox.inboxes.get(created)["message_count"] == 2
        assert mail_sandbox.inboxes.clear(created) == {"deleted_messages": 2}
        assert mail_sandbox.inboxes.get(created)["message_count"] == 0
    finally:
        assert mail_sandbox.inboxes.delete(created) == {"deleted_messages": 0}
    with pytest.raises(MailSandboxError) as gone:
        mail_sandbox.inboxes.get(created)
    assert (gone.value.code, gone.value.status) == ("not_found", 404)


def test_an_inbox_without_a_name_gets_a_random_one(mail_sandbox: MailSandbox) -> None:
    first, second = mail_sandbox.inboxes.create(), mail_sandbox.inboxes.create()
    try:
        assert first["name"] != second["name"]
    finally:
        mail_sandbox.inboxes.delete(first)
        mail_sandbox.inboxes.delete(second)


def test_messages_are_searched_by_q_from_to_subject_and_since(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    invoice = mail_sandbox.messages.send(inbox, from_="Billing <billing@shop.test>", to="alice@example.test", subject="Your invoice", text="Total: 12 EUR")
    mark = mark_after(mail_sandbox, inbox, invoice)
    welcome = mail_sandbox.messages.send(inbox, from_="hello@shop.test", to=["bob@example.test", "carol@example.test"], subject="Welcome aboard", text="Nice to meet you")
    reset = mail_sandbox.messages.send(inbox, from_="hello@shop.test", to="alice@example.test", subject="Reset your password", text="Click to reset")

    def ids(**filters: Any) -> list[str]:
        return [message["id"] for message in mail_sandbox.messages.list(inbox, **filters)["messages"]]

    assert ids() == [reset, welcome, invoice]  # newest first
    assert ids(q="subject:welcome OR subject:invoice") == [welcome, invoice]
    assert ids(q="reset -from:billing") == [reset]
    assert ids(from_="billing@shop.test") == [invoice]
    assert ids(to="alice@example.test") == [reset, invoice]
    assert ids(subject="password") == [reset]
    assert ids(since=mark["since"]) == [reset, welcome]
    assert ids(to="alice@example.test", since=mark["since"]) == [reset]
    assert mail_sandbox.messages.count(inbox, to="alice@example.test") == {"messages": 2, "unread": 2}

    first_page = mail_sandbox.messages.list(inbox, limit=2)
    assert [message["id"] for message in first_page["messages"]] == [reset, welcome]
    assert first_page["next_cursor"] is not None
    last_page = mail_sandbox.messages.list(inbox, limit=2, cursor=first_page["next_cursor"])
    assert ([message["id"] for message in last_page["messages"]], last_page["next_cursor"]) == ([invoice], None)
    assert [message["id"] for message in mail_sandbox.messages.iter(inbox, page_size=1)] == [reset, welcome, invoice]


def test_a_message_is_read_whole_raw_and_as_html_then_deleted(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    message_id = send(
        mail_sandbox, inbox, "Confirm your address", text="Your verification code is 771204. Confirm at https://app.test/confirm?t=1",
        html='<p>Your verification code is <b>771204</b>. <a href="https://app.test/confirm?t=1">Confirm</a></p>',
    )
    detail = mail_sandbox.messages.get(message_id)
    assert detail["subject"] == "Confirm your address"
    assert detail["codes"][0]["value"] == "771204"
    assert "https://app.test/confirm?t=1" in [link["url"] for link in detail["link_details"]]
    assert detail["text"].startswith("Your verification code is 771204.")

    raw = mail_sandbox.messages.raw(message_id)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"] == "Confirm your address"
    assert len(raw) == detail["size"]
    assert "<b>771204</b>" in mail_sandbox.messages.html(detail)

    assert mail_sandbox.messages.delete(message_id) == {"deleted_messages": 1}
    with pytest.raises(MailSandboxError) as gone:
        mail_sandbox.messages.get(message_id)
    assert gone.value.code == "not_found"


def test_refusals_carry_the_api_code_status_and_message(mail_sandbox: MailSandbox, sandbox_server: Server, inbox: InboxWithCredentials) -> None:
    with pytest.raises(MailSandboxError) as bad_query:
        mail_sandbox.messages.list(inbox, q="larger:abc")
    assert (bad_query.value.code, bad_query.value.status) == ("invalid_query", 400)
    assert "larger:abc" in bad_query.value.message
    assert bad_query.value.request_id
    assert str(bad_query.value).startswith("invalid_query (400): ")

    with MailSandbox(sandbox_server.url, "sbx_api_not-a-key") as stranger:
        with pytest.raises(MailSandboxError) as refused:
            stranger.inboxes.list()
    assert (refused.value.code, refused.value.status) == ("unauthorized", 401)

    assert mail_sandbox.workspace()["access"] == "read_write"


class _Later:
    """A stand-in server that answers each request with the next of `answers` (status, Retry-After), then 200."""

    def __init__(self, answers: list[tuple[int, str | None]]) -> None:
        self.answers = answers
        self.requests = 0
        later = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                later.requests += 1
                status, retry_after = later.answers.pop(0) if later.answers else (200, None)
                body = b'{"success":true,"data":[]}' if status == 200 else b'{"success":false,"error":{"code":"rate_limited","message":"slow down"}}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if retry_after is not None:
                    self.send_header("Retry-After", retry_after)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses the client makes between retries, recorded instead of waited out."""
    made: list[float] = []
    monkeypatch.setattr("mail_sandbox.client._pause", made.append)
    return made


@pytest.fixture
def later() -> Iterator[_Later]:
    stand_in = _Later([])
    yield stand_in
    stand_in.server.shutdown()
    stand_in.server.server_close()


def test_429_and_503_are_sent_again_after_their_retry_after_or_a_doubling_pause(later: _Later, pauses: list[float]) -> None:
    later.answers[:] = [(429, "7"), (503, "2"), (503, None)]
    with MailSandbox(later.url, "sbx_api_x") as client:
        assert client.inboxes.list() == []
    assert later.requests == 4
    assert pauses == [7.0, 2.0, 4.0]  # the third retry had no Retry-After: 1 s doubled twice


def test_retries_end_after_max_retries_and_a_long_retry_after_is_not_waited_out(later: _Later, pauses: list[float]) -> None:
    later.answers[:] = [(503, "1"), (503, "1")]
    with MailSandbox(later.url, "sbx_api_x", max_retries=1) as client:
        with pytest.raises(MailSandboxError) as busy:
            client.inboxes.list()
    assert (busy.value.status, later.requests, pauses) == (503, 2, [1.0])

    later.answers[:] = [(429, "3600")]
    with MailSandbox(later.url, "sbx_api_x") as client:
        with pytest.raises(MailSandboxError) as limited:
            client.inboxes.list()
    assert (limited.value.code, limited.value.retry_after, later.requests, pauses) == ("rate_limited", 3600, 3, [1.0])
