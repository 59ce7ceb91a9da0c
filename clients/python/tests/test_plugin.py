"""The pytest plugin, through pytest itself (pytester runs inner test files): where it reads its settings, the
per-test inbox and when it is kept, and the mail of a failed test in the pytest-html report."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mail_sandbox import MailSandbox, MailSandboxError
from sandbox_server import Server

INBOX_TESTS = """
import os

def record(inbox, outcome):
    with open(os.environ["INBOX_IDS"], "a") as ids:
        ids.write(f"{outcome} {inbox['id']}\\n")

def test_passes(inbox):
    record(inbox, "passes")

def test_fails(inbox):
    record(inbox, "fails")
    assert False, "failing on purpose"
"""


def _connection(server: Server) -> list[str]:
    return ["--mail-sandbox-url", server.url, "--mail-sandbox-api-key", server.api_key]


def _inboxes_of(ids_file: Path) -> dict[str, str]:
    return dict(line.split(" ") for line in ids_file.read_text().splitlines())


def _exists(client: MailSandbox, inbox_id: str) -> bool:
    try:
        client.inboxes.get(inbox_id)
    except MailSandboxError as error:
        assert error.code == "not_found"
        return False
    return True


@pytest.fixture
def ids_file(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = pytester.path / "inbox-ids.txt"
    monkeypatch.setenv("INBOX_IDS", str(path))
    for name in ("MAIL_SANDBOX_URL", "MAIL_SANDBOX_API_KEY", "MAIL_SANDBOX_MAIL_IN_REPORT"):
        monkeypatch.delenv(name, raising=False)
    return path


def test_a_tests_inbox_is_deleted_after_it_passed_or_failed(pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server, mail_sandbox: MailSandbox) -> None:
    pytester.makepyfile(INBOX_TESTS)
    pytester.runpytest(*_connection(sandbox_server)).assert_outcomes(passed=1, failed=1)
    inboxes = _inboxes_of(ids_file)
    assert not _exists(mail_sandbox, inboxes["passes"])
    assert not _exists(mail_sandbox, inboxes["fails"])


def test_a_failed_tests_inbox_is_kept_when_asked_and_named_in_its_report(pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server, mail_sandbox: MailSandbox) -> None:
    pytester.makepyfile(INBOX_TESTS)
    result = pytester.runpytest(*_connection(sandbox_server), "--mail-sandbox-keep-failed")
    result.assert_outcomes(passed=1, failed=1)
    inboxes = _inboxes_of(ids_file)
    try:
        assert not _exists(mail_sandbox, inboxes["passes"])
        assert _exists(mail_sandbox, inboxes["fails"])
        result.stdout.fnmatch_lines([f"*kept the failed test's inbox {inboxes['fails']} (test_fails *)*"])
    finally:
        mail_sandbox.inboxes.delete(inboxes["fails"])


def test_settings_come_from_the_command_line_then_the_environment_then_the_ini_file(
    pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server, monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytester.makepyfile(f"""
        def test_talks_to_the_server(mail_sandbox):
            assert mail_sandbox.base_url == {sandbox_server.url!r}
            assert mail_sandbox.workspace()["access"] == "read_write"
    """)
    nowhere = "http://127.0.0.1:9"  # the discard port: nothing answers there
    pytester.makeini(f"[pytest]\nmail_sandbox_url = {nowhere}\nmail_sandbox_api_key = sbx_api_from_the_ini\n")
    pytester.runpytest(*_connection(sandbox_server)).assert_outcomes(passed=1)

    monkeypatch.setenv("MAIL_SANDBOX_URL", sandbox_server.url)
    monkeypatch.setenv("MAIL_SANDBOX_API_KEY", sandbox_server.api_key)
    pytester.runpytest().assert_outcomes(passed=1)

    monkeypatch.delenv("MAIL_SANDBOX_URL")
    monkeypatch.delenv("MAIL_SANDBOX_API_KEY")
    pytester.makeini(f"[pytest]\nmail_sandbox_url = {sandbox_server.url}\nmail_sandbox_api_key = {sandbox_server.api_key}\n")
    pytester.runpytest().assert_outcomes(passed=1)


def test_without_settings_the_fixtures_say_what_is_missing(pytester: pytest.Pytester, ids_file: Path) -> None:
    pytester.makepyfile("def test_needs_an_inbox(inbox):\n    pass\n")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*no service to talk to: set --mail-sandbox-url and --mail-sandbox-api-key*"])

    refused = pytester.runpytest("--mail-sandbox-mail-in-report", "51")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*the mail in a report must be 0 to 50 messages, not 51*"])


REPORTED_TESTS = """
import smtplib, ssl

def test_waits_for_mail_that_never_comes(mail_sandbox, inbox):
    mail_sandbox.messages.send(
        inbox, from_="app@example.test", to="alice@example.test", subject="Welcome <b>Alice</b> & co",
        text="Hello Alice, your code is 482913.",
        html="<!doctype html><p>Hello <i>Alice</i></p><script>document.title = 'ran'</script>",
    )
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with smtplib.SMTP(inbox["smtp"]["host"], inbox["smtp"]["ports"][0]) as smtp:
        smtp.starttls(context=context)
        smtp.login(inbox["smtp"]["username"], inbox["smtp"]["password"])
        # 8-bit Latin-1, as old mailers send it: its .eml is not UTF-8.
        smtp.sendmail("legacy@example.test", ["alice@example.test"],
                      b"From: legacy@example.test\\r\\nTo: alice@example.test\\r\\nSubject: Legacy\\r\\n"
                      b"Content-Type: text/plain; charset=iso-8859-1\\r\\nContent-Transfer-Encoding: 8bit\\r\\n\\r\\nCaf\\xe9 au lait\\r\\n")
    mail_sandbox.wait_for(inbox, subject="Password reset", to="alice@example.test", timeout=0.5)

def test_passes(mail_sandbox, inbox):
    mail_sandbox.messages.send(inbox, from_="app@example.test", to="bob@example.test", subject="Fine", text="All good")
"""


def _report_tests(report: Path) -> dict[str, list[dict[str, Any]]]:
    """The tests of a pytest-html report, as the report's page reads them (its data-jsonblob)."""
    blob = re.search(r'data-jsonblob="([^"]*)"', report.read_text(encoding="utf-8"))
    assert blob is not None, "the report has no test data"
    tests: dict[str, list[dict[str, Any]]] = json.loads(html.unescape(blob.group(1)))["tests"]
    return tests


def test_a_failed_tests_mail_is_attached_to_the_pytest_html_report(pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server, mail_sandbox: MailSandbox) -> None:
    pytester.makepyfile(test_reported=REPORTED_TESTS)
    report = pytester.path / "report" / "report.html"
    result = pytester.runpytest(*_connection(sandbox_server), "--mail-sandbox-keep-failed", f"--html={report}")
    result.assert_outcomes(passed=1, failed=1)
    tests = _report_tests(report)

    passed = [extra for row in tests["test_reported.py::test_passes"] for extra in row["extras"]]
    assert passed == []

    extras = {html.unescape(extra["name"]): extra for row in tests["test_reported.py::test_waits_for_mail_that_never_comes"] for extra in row["extras"]}
    listing = (report.parent / extras["mail-sandbox inbox mail"]["content"]).read_text(encoding="utf-8")
    inbox_id = re.search(r"^Inbox (inb_\w+) ", listing, re.MULTILINE)
    assert inbox_id is not None, listing
    try:
        messages = {message["subject"]: message for message in mail_sandbox.messages.iter(inbox_id.group(1))}
        assert set(messages) == {"Welcome <b>Alice</b> & co", "Legacy"}
        welcome, legacy = messages["Welcome <b>Alice</b> & co"], messages["Legacy"]
        assert listing.startswith(f"The test's inbox was kept: {sandbox_server.url}/inboxes/{inbox_id.group(1)}\n")
        assert "received 2 message(s)" in listing
        assert f"#2  {welcome['id']}  received " in listing and f"#1  {legacy['id']}  received " in listing

        failed_wait = (report.parent / extras["mail-sandbox failed wait"]["content"]).read_text(encoding="utf-8")
        assert failed_wait.startswith("wait_timeout (404): no message arrived in inbox")
        assert re.search(r"^\s+received\s+from\s+to\s+subject\s+failed terms$", failed_wait, re.MULTILINE)
        welcome_row = next(line for line in failed_wait.splitlines() if "Welcome <b>Alice</b>" in line)
        assert 'subject:"password reset"' in welcome_row

        page = (report.parent / extras["mail-sandbox #2 Welcome b Alice b & co.html"]["content"]).read_text(encoding="utf-8")
        assert re.match(r'<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'[^"]*">', page)
        assert "<p>Hello <i>Alice</i></p>" in page
        text = (report.parent / extras["mail-sandbox #2 Welcome b Alice b & co.txt"]["content"]).read_text(encoding="utf-8")
        assert text.startswith("Hello Alice, your code is 482913.")
        eml = (report.parent / extras["mail-sandbox #2 Welcome b Alice b & co.eml"]["content"]).read_bytes()
        assert eml == mail_sandbox.messages.raw(welcome)
        assert extras["mail-sandbox #2 Welcome b Alice b & co.eml"]["mime_type"] == "message/rfc822"

        legacy_eml = extras["mail-sandbox #1 Legacy.eml"]
        assert legacy_eml["format_type"] == "url"
        assert legacy_eml["content"].startswith("data:message/rfc822;base64,")
        assert base64.b64decode(legacy_eml["content"].split(",", 1)[1]) == mail_sandbox.messages.raw(legacy)
        assert b"Caf\xe9 au lait" in mail_sandbox.messages.raw(legacy)

        # The subject reaches the report's page only escaped: pytest-html writes link names into it as they are.
        assert extras["mail-sandbox #2 Welcome b Alice b & co.html"]["name"] == "mail-sandbox #2 Welcome b Alice b &amp; co.html"
    finally:
        mail_sandbox.inboxes.delete(inbox_id.group(1))


def test_the_report_holds_as_many_messages_as_asked_and_can_be_one_file(pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server) -> None:
    pytester.makepyfile(test_reported=REPORTED_TESTS)
    report = pytester.path / "report.html"
    result = pytester.runpytest(*_connection(sandbox_server), "--mail-sandbox-mail-in-report", "1", f"--html={report}", "--self-contained-html")
    result.assert_outcomes(passed=1, failed=1)
    extras = {html.unescape(extra["name"]): extra for row in _report_tests(report)["test_reported.py::test_waits_for_mail_that_never_comes"] for extra in row["extras"]}
    assert sorted(extras) == ["mail-sandbox #1 Legacy.eml", "mail-sandbox #1 Legacy.txt", "mail-sandbox failed wait", "mail-sandbox inbox mail"]
    listing = extras["mail-sandbox inbox mail"]["content"]
    assert listing.startswith("data:text/plain;charset=utf-8;base64,")
    text = base64.b64decode(listing.split(",", 1)[1]).decode("utf-8")
    assert "received 2 message(s); the newest 1, newest first, are attached" in text
    assert re.search(r"^1 older message\(s\) are not attached: GET http://127\.0\.0\.1:\d+/v1/inboxes/inb_\w+/messages$", text, re.MULTILINE)


def test_without_pytest_html_a_failed_wait_still_explains_itself_in_the_traceback(pytester: pytest.Pytester, ids_file: Path, sandbox_server: Server) -> None:
    pytester.makepyfile(test_reported=REPORTED_TESTS)
    result = pytester.runpytest(*_connection(sandbox_server), "-p", "no:html")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        '*WaitTimeoutError: wait_timeout (404): no message arrived in inbox inb_* within 0.5 s',
        '*looked for: to:alice@example.test subject:"password reset" after:* (0 of 1 matched; server clock *)',
        "*recent mail in the inbox, newest first:",
        "*received*from*to*subject*failed terms",
        # (a mail stored just before the wait's default since may or may not fail its after: term as well)
        '*legacy@example.test*alice@example.test*Legacy*subject:"password reset"*',
    ])
