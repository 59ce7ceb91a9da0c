"""An application under test: a small plain-WSGI sign-up app, served on a thread over real HTTP, that mails a one-time
code and a confirmation link over SMTP to the inbox; the test reads them with wait_for_code and wait_for_link."""

from __future__ import annotations

import json
import secrets
import smtplib
import ssl
import threading
from collections.abc import Callable, Iterable, Iterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
import requests

from mail_sandbox import InboxWithCredentials, MailSandbox, SmtpSettings

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


class SignUpApp:
    """POST /signup {email} mails a code and a link; POST /verify {email, code} or GET /confirm?token= signs up."""

    def __init__(self, smtp: SmtpSettings) -> None:
        self.smtp = smtp
        self.base_url = ""
        self.pending: dict[str, tuple[str, str]] = {}  # email -> (code, token)
        self.confirmed: set[str] = set()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        if method == "POST" and path == "/signup":
            email = self._form(environ)["email"]
            code, token = f"{secrets.randbelow(10**6):06d}", secrets.token_urlsafe(16)
            self.pending[email] = (code, token)
            self._mail(email, code, token)
            return self._answer(start_response, "202 Accepted", {"status": "check your mail"})
        if method == "POST" and path == "/verify":
            form = self._form(environ)
            if self.pending.get(form["email"], ("", ""))[0] != form["code"]:
                return self._answer(start_response, "400 Bad Request", {"status": "wrong code"})
            self.confirmed.add(form["email"])
            return self._answer(start_response, "200 OK", {"status": "welcome"})
        if method == "GET" and path == "/confirm":
            token = parse_qs(environ.get("QUERY_STRING", "")).get("token", [""])[0]
            owner = next((address for address, (_, pending) in self.pending.items() if pending == token), None)
            if owner is None:
                return self._answer(start_response, "404 Not Found", {"status": "unknown link"})
            self.confirmed.add(owner)
            return self._answer(start_response, "200 OK", {"status": "confirmed", "email": owner})
        return self._answer(start_response, "404 Not Found", {"status": "no such page"})

    @staticmethod
    def _form(environ: dict[str, Any]) -> dict[str, str]:
        body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode("utf-8")
        return {name: values[0] for name, values in parse_qs(body).items()}

    @staticmethod
    def _answer(start_response: StartResponse, status: str, body: dict[str, str]) -> list[bytes]:
        payload = json.dumps(body).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
        return [payload]

    def _mail(self, email: str, code: str, token: str) -> None:
        link = f"{self.base_url}/confirm?token={token}"
        message = EmailMessage()
        message["From"] = "Sign-up <no-reply@app.example.test>"
        message["To"] = email
        message["Subject"] = "Confirm your sign-up"
        message.set_content(f"Your verification code is {code}.\nOr confirm here: {link}\n")
        message.add_alternative(f'<p>Your verification code is <b>{code}</b>.</p><p><a href="{link}">Confirm my account</a></p>', subtype="html")
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the sandbox's certificate is self-signed
        with smtplib.SMTP(self.smtp["host"], self.smtp["ports"][0], timeout=30) as smtp:
            smtp.starttls(context=context)
            smtp.login(self.smtp["username"], self.smtp["password"])
            smtp.send_message(message)


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def app(inbox: InboxWithCredentials) -> Iterator[SignUpApp]:
    """The app, configured with the test's inbox as its mail server, listening on a free loopback port."""
    application = SignUpApp(inbox["smtp"])
    server: WSGIServer = make_server("127.0.0.1", 0, application, handler_class=_QuietHandler)
    application.base_url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield application
    server.shutdown()
    server.server_close()
    thread.join()


def test_signing_up_mails_a_code_that_verifies_the_account(mail_sandbox: MailSandbox, inbox: InboxWithCredentials, app: SignUpApp) -> None:
    email = f"alice-{secrets.token_hex(4)}@example.test"
    mark = mail_sandbox.mark(inbox)
    assert requests.post(f"{app.base_url}/signup", data={"email": email}, timeout=30).status_code == 202

    code = mail_sandbox.wait_for_code(inbox, to=email, since=mark["since"])
    assert code == app.pending[email][0]
    wrong = "000000" if code != "000000" else "111111"
    assert requests.post(f"{app.base_url}/verify", data={"email": email, "code": wrong}, timeout=30).status_code == 400
    assert email not in app.confirmed
    answer = requests.post(f"{app.base_url}/verify", data={"email": email, "code": code}, timeout=30)
    assert (answer.status_code, answer.json()) == (200, {"status": "welcome"})
    assert email in app.confirmed


def test_the_mailed_link_confirms_the_account(mail_sandbox: MailSandbox, inbox: InboxWithCredentials, app: SignUpApp) -> None:
    first, second = (f"{name}-{secrets.token_hex(4)}@example.test" for name in ("bob", "carol"))
    mark = mail_sandbox.mark(inbox)
    for email in (first, second):
        assert requests.post(f"{app.base_url}/signup", data={"email": email}, timeout=30).status_code == 202

    link = mail_sandbox.wait_for_link(inbox, to=first, match="/confirm?token=", since=mark["since"])
    answer = requests.get(link, timeout=30)
    assert (answer.status_code, answer.json()) == (200, {"status": "confirmed", "email": first})
    assert app.confirmed == {first}
