"""The waits against the real server: for a message, its code, its link, N messages, none; the mark; and what a wait
that timed out says came instead."""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta, timezone
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from conftest import mark_after, send
from mail_sandbox import InboxWithCredentials, MailSandbox, UnexpectedMessageError, WaitTimeoutError, iso_time, parse_time
from sandbox_server import Server


def test_a_wait_answers_with_the_newest_match_since_the_mark(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    send(mail_sandbox, inbox, "Welcome", to="bob@example.test")
    mark = mail_sandbox.mark(inbox)
    older = send(mail_sandbox, inbox, "Welcome", to="alice@example.test")
    newer = send(mail_sandbox, inbox, "Welcome", to="alice@example.test")
    send(mail_sandbox, inbox, "Unrelated", to="alice@example.test")
    message = mail_sandbox.wait_for(inbox, subject="Welcome", to="alice@example.test", since=mark["since"])
    assert message["id"] == newer != older
    assert message["recipients"] == ["alice@example.test"]
    assert mail_sandbox.wait_for(inbox, q="subject:welcome to:bob@example.test", since=parse_time(mark["since"]).replace(year=2000))["to"] == "bob@example.test"


def test_the_mark_is_the_servers_point_in_the_inbox(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    before = send(mail_sandbox, inbox, "before the mark")
    mark = mark_after(mail_sandbox, inbox, before)
    after = send(mail_sandbox, inbox, "after the mark")
    assert parse_time(mark["since"]).tzinfo is not None
    assert mark["last_event_id"] != ""
    assert [message["id"] for message in mail_sandbox.messages.list(inbox, since=mark["since"])["messages"]] == [after]
    assert mail_sandbox.messages.get(before)["received_at"] < mark["since"] <= mail_sandbox.messages.get(after)["received_at"]


class _Responses:
    """Sees each answer a session gets, so a test can act once the server answered a certain way."""

    def __init__(self, session: requests.Session) -> None:
        self.wait_timeouts = 0
        self.first_wait_timeout = threading.Event()
        session.hooks["response"].append(self._saw)

    def _saw(self, response: requests.Response, *_: Any, **__: Any) -> None:
        if response.status_code == 404 and "/messages/wait" in response.url and b"wait_timeout" in response.content:
            self.wait_timeouts += 1
            self.first_wait_timeout.set()


@pytest.fixture
def short_waits(sandbox_server: Server) -> Iterator[tuple[MailSandbox, _Responses]]:
    """A client whose server waits last half a second each, so a longer wait is several requests, and what it is answered."""
    session = requests.Session()
    responses = _Responses(session)
    with MailSandbox(sandbox_server.url, sandbox_server.api_key, server_wait_seconds=0.5, session=session) as client:
        yield client, responses


def test_a_wait_longer_than_one_server_wait_asks_again_and_catches_a_later_mail(
    short_waits: tuple[MailSandbox, _Responses], mail_sandbox: MailSandbox, inbox: InboxWithCredentials,
) -> None:
    client, responses = short_waits
    result: dict[str, Any] = {}

    def wait() -> None:
        try:
            result["message"] = client.wait_for(inbox, subject="Arrives later", timeout=60)
        except Exception as error:  # noqa: BLE001 - handed to the test's thread
            result["error"] = error

    waiter = threading.Thread(target=wait)
    waiter.start()
    # Sent once one server wait has ended without it: the next one, with the same since, must find it.
    assert responses.first_wait_timeout.wait(30)
    sent = send(mail_sandbox, inbox, "Arrives later")
    waiter.join(60)
    assert "error" not in result, result.get("error")
    assert result["message"]["id"] == sent
    assert responses.wait_timeouts >= 1


def test_a_wait_that_times_out_explains_what_came_instead(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    wrong_subject = send(mail_sandbox, inbox, "Reset your password", to="alice@example.test")
    wrong_address = send(mail_sandbox, inbox, "Welcome", to="bob@example.test")
    with pytest.raises(WaitTimeoutError) as timed_out:
        mail_sandbox.wait_for(inbox, subject="Welcome", to="alice@example.test", since=mark["since"], timeout=1)
    error = timed_out.value
    assert (error.code, error.status, error.inbox_id) == ("wait_timeout", 404, inbox["id"])
    assert error.explain is not None
    assert error.explain["matched"] == 0 and error.explain["wanted"] == 1
    assert "subject:welcome" in error.explain["terms"] and "to:alice@example.test" in error.explain["terms"]
    failed = {message["id"]: message["failed_terms"] for message in error.explain["recent"]}
    assert failed[wrong_subject] == ["subject:welcome"]
    assert failed[wrong_address] == ["to:alice@example.test"]
    assert mail_sandbox.last_failed_wait is error

    table = str(error)
    assert "looked for: " in table and "(0 of 1 matched;" in table
    header = next(line for line in table.splitlines() if line.strip().startswith("received"))
    assert re.split(r"\s{2,}", header.strip()) == ["received", "from", "to", "subject", "failed terms"]
    row = next(line for line in table.splitlines() if "Reset your password" in line)
    assert "alice@example.test" in row and row.rstrip().endswith("subject:welcome")


def test_a_wait_by_default_takes_only_mail_from_the_servers_mark_on(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    earlier = send(mail_sandbox, inbox, "Sent before the wait")
    # The default since is the server's mark less the mark's round trip (a margin for mail stored while it was on its
    # way): half a second held on the server puts the earlier mail clearly before it. Nothing matches, so it passes.
    mail_sandbox.expect_no_message(inbox, subject="Nothing like this", timeout=0.5)
    with pytest.raises(WaitTimeoutError) as timed_out:
        mail_sandbox.wait_for(inbox, subject="Sent before the wait", timeout=0.5)
    assert timed_out.value.explain is not None
    after_term = next(term for term in timed_out.value.explain["terms"] if term.startswith("after:"))
    listed = {message["id"]: message["failed_terms"] for message in timed_out.value.explain["recent"]}
    assert listed[earlier] == [after_term]


def test_wait_for_code_returns_the_best_code_of_a_matching_mail(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    send(mail_sandbox, inbox, "Your sign-in code", to="bob@example.test", text="Your sign-in code is 111222.")
    send(mail_sandbox, inbox, "Newsletter", to="alice@example.test", text="Nothing to see here.")
    send(mail_sandbox, inbox, "Your sign-in code", to="alice@example.test", text="Your sign-in code is 482 913. It expires soon.")
    assert mail_sandbox.wait_for_code(inbox, to="alice@example.test", since=mark["since"]) == "482913"
    assert mail_sandbox.wait_for_code(inbox, q="to:bob@example.test OR to:nobody@example.test", since=mark["since"]) == "111222"
    with pytest.raises(WaitTimeoutError) as timed_out:
        mail_sandbox.wait_for_code(inbox, q="subject:newsletter", since=mark["since"], timeout=0.5)
    assert timed_out.value.explain is not None
    assert "has:code" in timed_out.value.explain["terms"]


def test_wait_for_link_passes_over_a_newer_match_without_the_link(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    send(
        mail_sandbox, inbox, "Confirm your address",
        html='<p><a href="https://app.test/help">Help</a> <a href="https://app.test/confirm?token=abc123">Confirm</a></p>',
    )
    send(mail_sandbox, inbox, "Confirm your address", html='<p><a href="https://app.test/unsubscribe">Unsubscribe</a></p>')
    assert mail_sandbox.wait_for_link(inbox, match="/confirm?token=", subject="Confirm", since=mark["since"]) == "https://app.test/confirm?token=abc123"
    assert mail_sandbox.wait_for_link(inbox, match=re.compile(r"token=\w+$"), since=mark["since"]) == "https://app.test/confirm?token=abc123"
    assert mail_sandbox.wait_for_link(inbox, since=mark["since"]) == "https://app.test/unsubscribe"
    with pytest.raises(WaitTimeoutError) as timed_out:
        mail_sandbox.wait_for_link(inbox, match="/reset", since=mark["since"], timeout=0.5)
    assert "2 matching message(s) had none" in timed_out.value.message


def test_wait_for_messages_returns_n_in_arrival_order_or_says_how_many_came(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    sent = [send(mail_sandbox, inbox, f"Reminder {number}") for number in (1, 2, 3)]
    send(mail_sandbox, inbox, "Something else")
    messages = mail_sandbox.wait_for_messages(inbox, 3, subject="Reminder", since=mark["since"])
    assert [message["id"] for message in messages] == sent
    assert [message["subject"] for message in messages] == ["Reminder 1", "Reminder 2", "Reminder 3"]
    assert [message["id"] for message in mail_sandbox.wait_for_messages(inbox, 2, subject="Reminder", since=mark["since"])] == sent[1:]

    with pytest.raises(WaitTimeoutError) as too_few:
        mail_sandbox.wait_for_messages(inbox, 5, subject="Reminder", since=mark["since"], timeout=0.5)
    assert too_few.value.explain is not None
    assert (too_few.value.explain["matched"], too_few.value.explain["wanted"]) == (3, 5)
    assert "(3 of 5 matched;" in str(too_few.value)


def test_expect_no_message_passes_when_none_comes_and_raises_with_the_one_that_did(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    send(mail_sandbox, inbox, "Password changed", to="bob@example.test")
    mail_sandbox.expect_no_message(inbox, subject="Password changed", to="alice@example.test", since=mark["since"], timeout=0.5)

    unwanted = send(mail_sandbox, inbox, "Password changed", to="alice@example.test")
    with pytest.raises(UnexpectedMessageError) as came:
        mail_sandbox.expect_no_message(inbox, subject="Password changed", to="alice@example.test", since=mark["since"], timeout=5)
    error = came.value
    assert (error.code, error.status, error.inbox_id) == ("unexpected_message", 409, inbox["id"])
    assert error.found["id"] == unwanted
    assert f"found: {unwanted}" in str(error)
    assert mail_sandbox.last_failed_wait is error


def test_a_wait_on_an_empty_inbox_says_so_and_a_clockless_since_is_refused(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    with pytest.raises(WaitTimeoutError) as timed_out:
        mail_sandbox.wait_for(inbox, q="subject:anything", timeout=0.3)
    assert timed_out.value.explain is not None and timed_out.value.explain["recent"] == []
    assert str(timed_out.value).endswith("\nthe inbox has no mail")
    with pytest.raises(ValueError, match="timezone-aware"):
        mail_sandbox.wait_for(inbox, since=datetime(2026, 12, 3, 9, 0), timeout=0.3)
    aware = datetime(2026, 12, 3, 10, 0, tzinfo=timezone(timedelta(hours=1)))
    assert iso_time(aware) == "2026-12-03T09:00:00.000Z"
