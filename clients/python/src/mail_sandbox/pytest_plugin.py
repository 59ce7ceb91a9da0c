"""The pytest plugin (entry point ``pytest11``): settings, the `mail_sandbox` client and a per-test `inbox` fixture,
and, on a failed test, the inbox's mail in the pytest-html report when pytest-html makes one."""

from __future__ import annotations

import base64
import html
import os
import re
import secrets
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .client import MailSandbox
from .errors import MailSandboxError
from .report import MOST_MESSAGES, MailFile, inbox_mail_report
from .types import InboxWithCredentials

DEFAULT_MAIL_IN_REPORT = 10


@dataclass(frozen=True)
class MailSandboxSettings:
    """Where the service is and what the fixtures do: from the command line, else the environment, else the ini file."""

    base_url: str | None
    api_key: str | None
    keep_failed: bool
    mail_in_report: int


@dataclass
class _TestInbox:
    inbox: InboxWithCredentials
    client: MailSandbox
    settings: MailSandboxSettings


_SETTINGS = pytest.StashKey[MailSandboxSettings]()
_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()
_INBOX = pytest.StashKey[_TestInbox]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mail-sandbox", "mail-sandbox (email capture for tests)")
    group.addoption("--mail-sandbox-url", dest="mail_sandbox_url", metavar="URL",
                    help="the service's base URL, e.g. http://127.0.0.1:8025 (env MAIL_SANDBOX_URL, ini mail_sandbox_url)")
    group.addoption("--mail-sandbox-api-key", dest="mail_sandbox_api_key", metavar="KEY",
                    help="an API key of the workspace (env MAIL_SANDBOX_API_KEY, ini mail_sandbox_api_key)")
    group.addoption("--mail-sandbox-keep-failed", dest="mail_sandbox_keep_failed", action="store_true", default=None,
                    help="keep the inbox of a failed test instead of deleting it (ini mail_sandbox_keep_failed)")
    group.addoption("--mail-sandbox-mail-in-report", dest="mail_sandbox_mail_in_report", type=int, metavar="N",
                    help=f"messages of a failed test's inbox to attach to the pytest-html report, 0 to {MOST_MESSAGES} "
                         f"(default {DEFAULT_MAIL_IN_REPORT}; env MAIL_SANDBOX_MAIL_IN_REPORT, ini mail_sandbox_mail_in_report)")
    parser.addini("mail_sandbox_url", "the mail-sandbox service's base URL", default=None)
    parser.addini("mail_sandbox_api_key", "an API key of the mail-sandbox workspace", default=None)
    parser.addini("mail_sandbox_keep_failed", "keep the inbox of a failed test", type="bool", default=False)
    parser.addini("mail_sandbox_mail_in_report", "messages of a failed test's inbox to attach to the pytest-html report",
                  default=str(DEFAULT_MAIL_IN_REPORT))


def _setting(config: pytest.Config, name: str, environment: str | None) -> Any:
    option = config.getoption(name)
    if option is not None:
        return option
    if environment is not None and os.environ.get(environment, "") != "":
        return os.environ[environment]
    return config.getini(name)


def settings_of(config: pytest.Config) -> MailSandboxSettings:
    """The plugin's settings for this run."""
    raw_count = _setting(config, "mail_sandbox_mail_in_report", "MAIL_SANDBOX_MAIL_IN_REPORT")
    try:
        count = int(raw_count)
    except ValueError:
        raise pytest.UsageError(f"mail-sandbox: the mail in a report must be a number of messages, not {raw_count!r}") from None
    if not 0 <= count <= MOST_MESSAGES:
        raise pytest.UsageError(f"mail-sandbox: the mail in a report must be 0 to {MOST_MESSAGES} messages, not {count}")
    return MailSandboxSettings(
        base_url=_setting(config, "mail_sandbox_url", "MAIL_SANDBOX_URL") or None,
        api_key=_setting(config, "mail_sandbox_api_key", "MAIL_SANDBOX_API_KEY") or None,
        keep_failed=bool(_setting(config, "mail_sandbox_keep_failed", None)),
        mail_in_report=count,
    )


def pytest_configure(config: pytest.Config) -> None:
    # Read once, at the start: a setting that is wrong stops the run before any test.
    config.stash[_SETTINGS] = settings_of(config)


@pytest.fixture(scope="session")
def mail_sandbox_settings(pytestconfig: pytest.Config) -> MailSandboxSettings:
    """The plugin's settings; override this fixture to point the others at a service a session fixture starts."""
    return pytestconfig.stash[_SETTINGS]


@pytest.fixture(scope="session")
def mail_sandbox(mail_sandbox_settings: MailSandboxSettings) -> Iterator[MailSandbox]:
    """A client of the service, shared by the session's tests."""
    settings = mail_sandbox_settings
    if settings.base_url is None or settings.api_key is None:
        pytest.fail(
            "mail-sandbox: no service to talk to: set --mail-sandbox-url and --mail-sandbox-api-key "
            "(or MAIL_SANDBOX_URL and MAIL_SANDBOX_API_KEY, or mail_sandbox_url and mail_sandbox_api_key in the ini file)",
            pytrace=False,
        )
    with MailSandbox(settings.base_url, settings.api_key) as client:
        yield client


@pytest.fixture
def inbox(request: pytest.FixtureRequest, mail_sandbox: MailSandbox, mail_sandbox_settings: MailSandboxSettings) -> Iterator[InboxWithCredentials]:
    """An inbox of the test's own, with its SMTP settings (`inbox["smtp"]`). It is deleted after the test, unless
    the test failed and --mail-sandbox-keep-failed is set; then the test's report names it."""
    created = mail_sandbox.inboxes.create(name=_inbox_name(request.node.name))
    mail_sandbox.last_failed_wait = None
    request.node.stash[_INBOX] = _TestInbox(created, mail_sandbox, mail_sandbox_settings)
    yield created
    failed = any(report.failed for report in request.node.stash.get(_REPORTS, {}).values())
    if failed and mail_sandbox_settings.keep_failed:
        request.node.add_report_section(
            "teardown", "mail-sandbox",
            f"kept the failed test's inbox {created['id']} ({created['name']}): {mail_sandbox.base_url}/inboxes/{created['id']}",
        )
        return
    try:
        mail_sandbox.inboxes.delete(created)
    except MailSandboxError as error:
        if error.code != "not_found":  # the test may have deleted it itself
            raise


def _inbox_name(test_name: str) -> str:
    """The test's name and a random tail: unique in the workspace, and easy to find in the dashboard."""
    readable = re.sub(r"[\x00-\x1f\x7f-\x9f]+", " ", test_name).strip()[:80] or "test"
    return f"{readable} {secrets.token_hex(4)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    test_inbox = item.stash.get(_INBOX, None)
    if report.when != "call" or not report.failed or test_inbox is None or not _html_report_made(item.config):
        return
    failed_wait = _failed_wait(call, test_inbox)
    files = inbox_mail_report(
        test_inbox.client, test_inbox.inbox, count=test_inbox.settings.mail_in_report, failed_wait=failed_wait,
        kept=test_inbox.settings.keep_failed,
    )
    # pytest-html reads `extras` of the report once every hook wrapper has run (its own wraps this one).
    setattr(report, "extras", [*getattr(report, "extras", []), *(_html_extra(file) for file in files)])


def _html_report_made(config: pytest.Config) -> bool:
    """pytest-html is installed and writes a report in this run."""
    return config.pluginmanager.hasplugin("html") and bool(config.getoption("htmlpath", None))


def _failed_wait(call: pytest.CallInfo[None], test_inbox: _TestInbox) -> MailSandboxError | None:
    """The wait the test failed on (its exception, or one it led to), else the last wait on its inbox that failed."""
    error: BaseException | None = call.excinfo.value if call.excinfo is not None else None
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, MailSandboxError) and (error.explain is not None or error.found is not None):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    last = test_inbox.client.last_failed_wait
    return last if last is not None and last.inbox_id == test_inbox.inbox["id"] else None


def _html_extra(file: MailFile) -> dict[str, Any]:
    """A pytest-html extra for the file: a file the report links to, byte for byte."""
    from pytest_html import extras  # type: ignore[import-untyped]  # installed when a report is made

    # pytest-html writes names into the report's HTML as they are, and a subject is a stranger's text.
    name = html.escape(file.name)
    try:
        text = file.body.decode("utf-8")
    except UnicodeDecodeError:
        # Text extras are written as UTF-8, which would change these bytes (an 8-bit .eml): link them as data instead.
        data = base64.b64encode(file.body).decode("ascii")
        return dict(extras.url(f"data:{file.content_type};base64,{data}", name=name))
    return dict(extras.extra(text, extras.FORMAT_TEXT, name=name, mime_type=file.content_type, extension=file.extension))
