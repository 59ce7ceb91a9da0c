"""The suite's session: one real server per run (on the profile SANDBOX_TEST_PROFILE names) that the plugin's own
fixtures are pointed at, and helpers to send mail to an inbox over SMTP and over HTTP."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Iterator
from email.message import EmailMessage

import pytest

from mail_sandbox import InboxMark, InboxWithCredentials, MailSandbox, parse_time
from mail_sandbox.pytest_plugin import MailSandboxSettings
from sandbox_server import Server, start_server

pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def sandbox_server() -> Iterator[Server]:
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def mail_sandbox_settings(sandbox_server: Server) -> MailSandboxSettings:
    """The plugin's `mail_sandbox` and `inbox` fixtures, on the session's server."""
    return MailSandboxSettings(base_url=sandbox_server.url, api_key=sandbox_server.api_key, keep_failed=False, mail_in_report=10)


def smtp_send(inbox: InboxWithCredentials, message: EmailMessage, *, implicit_tls: bool = False) -> None:
    """Sends `message` to the inbox as an application would: its SMTP login, over STARTTLS (or implicit TLS)."""
    smtp = inbox["smtp"]
    # The server's certificate is self-signed unless SANDBOX_TLS_CERT/KEY are set.
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    if implicit_tls:
        with smtplib.SMTP_SSL(smtp["host"], smtp["ports"][1], context=context, timeout=30) as client:
            client.login(smtp["username"], smtp["password"])
            client.send_message(message)
        return
    with smtplib.SMTP(smtp["host"], smtp["ports"][0], timeout=30) as client:
        client.starttls(context=context)
        client.login(smtp["username"], smtp["password"])
        client.send_message(message)


def mail(subject: str, *, to: str = "alice@example.test", sender: str = "app@example.test", text: str = "Hello.", html: str | None = None) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
    return message


def send(sandbox: MailSandbox, inbox: InboxWithCredentials, subject: str, *, to: str = "alice@example.test", text: str = "Hello.", html: str | None = None) -> str:
    """Captures a message in the inbox over HTTP (faster than SMTP where the transport is not what a test is about)."""
    return sandbox.messages.send(inbox, from_="app@example.test", to=to, subject=subject, text=text, html=html)


def mark_after(sandbox: MailSandbox, inbox: InboxWithCredentials, message_id: str) -> InboxMark:
    """A mark strictly later than the message's arrival. `since` means "at or after", so a mark read in the very
    millisecond the message was stored still selects it; the next millisecond's does not."""
    received = parse_time(sandbox.messages.get(message_id)["received_at"])
    for _ in range(1000):
        mark = sandbox.mark(inbox)
        if parse_time(mark["since"]) > received:
            return mark
    raise AssertionError(f"the server's mark stayed at {received.isoformat()} for 1000 requests")
