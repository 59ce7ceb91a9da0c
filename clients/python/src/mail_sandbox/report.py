"""What a failed test's report gets from its inbox: the wait that failed, a list of the inbox's newest messages, and
each one's rendered HTML, text and raw source as files, every file bounded. Independent of any report tool: the
pytest plugin hands the files to pytest-html."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .client import MailSandbox
from .errors import MailSandboxError
from .types import Inbox, MessageSummary

FAILED_WAIT = "mail-sandbox failed wait"
"""The file that says which wait failed and why, with the wait's explanation as a table."""
INBOX_MAIL = "mail-sandbox inbox mail"
"""The file that lists the inbox's newest messages and the files attached for each."""
MOST_MESSAGES = 50
"""The most messages a report may hold; the files' limits bound it as well."""
FILE_LIMIT = 1024 * 1024
"""Largest file attached for one message; a larger one is named in the list with where to fetch it."""
REPORT_LIMIT = 5 * 1024 * 1024
"""All the message files of one test's report together (a self-contained report holds them in base64)."""


@dataclass(frozen=True)
class MailFile:
    """One file for the report: its name (with its extension), media type and exact bytes."""

    name: str
    extension: str
    content_type: str
    body: bytes


def inbox_mail_report(
    client: MailSandbox,
    inbox: Inbox,
    *,
    count: int,
    failed_wait: MailSandboxError | None = None,
    kept: bool = False,
) -> list[MailFile]:
    """The files for `inbox` for a failed test: the failed wait's text (when there is one), the list of the inbox's
    `count` newest messages, then each one's ``.html`` (with the policy it was served under written into it, so it
    runs no script when the report opens it), ``.txt`` and ``.eml``. A file that cannot be read or does not fit is
    named in the list instead. Never raises for the mail it cannot read: the list says why."""
    report: list[MailFile] = []
    if failed_wait is not None:
        report.append(_text_file(FAILED_WAIT, f"{str(failed_wait)}\n"))
    heading = f"Inbox {inbox['id']} ({inbox['name']})"
    kept_line = [f"The test's inbox was kept: {client.base_url}/inboxes/{inbox['id']}"] if kept else []
    if count <= 0:
        return report
    try:
        summaries = client.messages.list(inbox, limit=min(count, MOST_MESSAGES))["messages"]
        total = max(client.messages.count(inbox)["messages"], len(summaries))
    except (MailSandboxError, OSError) as error:
        report.append(_text_file(INBOX_MAIL, "\n".join([*kept_line, f"Could not read the mail of {heading}: {error}"]) + "\n"))
        return report
    if not summaries:
        report.append(_text_file(INBOX_MAIL, "\n".join([*kept_line, f"{heading} received no mail."]) + "\n"))
        return report
    budget = [REPORT_LIMIT]
    entries: list[str] = []
    message_files: list[MailFile] = []
    for number, summary in enumerate(summaries, start=1):
        lines, attached = _message_files(client, summary, f"mail-sandbox #{number} {_file_title(summary['subject'])}", budget)
        message_files.extend(attached)
        entries.append("\n".join([f"#{number}  {summary['id']}  received {summary['received_at']}", *(f"    {line}" for line in lines)]))
    older = total - len(summaries)
    listing = [
        *kept_line,
        f"{heading} received {total} message(s); the newest {len(summaries)}, newest first, are attached as files "
        'named "mail-sandbox #<n> <subject>":',
        *entries,
        *([f"{older} older message(s) are not attached: GET {client.base_url}/v1/inboxes/{inbox['id']}/messages"] if older > 0 else []),
    ]
    report.append(_text_file(INBOX_MAIL, "\n".join(listing) + "\n"))
    report.extend(message_files)
    return report


def _text_file(name: str, text: str) -> MailFile:
    return MailFile(name=name, extension="txt", content_type="text/plain", body=text.encode("utf-8"))


def _message_files(client: MailSandbox, summary: MessageSummary, name: str, budget: list[int]) -> tuple[list[str], list[MailFile]]:
    """One message's files, and the lines that describe it and them in the list."""
    lines = [
        f"from:    {summary['from'] or summary['envelope_from'] or '(none)'}",
        f"to:      {', '.join(summary['recipients']) or summary['to']}",
        f"subject: {summary['subject']}",
    ]
    attached: list[MailFile] = []
    left_out: list[str] = []

    def offer(kind: str, file: MailFile | str) -> None:
        if isinstance(file, str):
            left_out.append(f"{kind} ({file})")
        elif len(file.body) > budget[0]:
            left_out.append(f"{kind} (the report's {_mebibytes(REPORT_LIMIT)} for mail is used up)")
        else:
            budget[0] -= len(file.body)
            attached.append(file)

    message_path = f"{client.base_url}/v1/messages/{summary['id']}"
    try:
        if summary["has_html"]:
            response = client.request("GET", f"/v1/messages/{summary['id']}/html")
            if len(response.content) > FILE_LIMIT:
                offer("html", f"more than {_mebibytes(FILE_LIMIT)}: GET {message_path}/html")
            else:
                page = _with_policy(response.content.decode("utf-8", errors="replace"), response.headers.get("Content-Security-Policy"))
                offer("html", MailFile(f"{name}.html", "html", "text/html", page.encode("utf-8")))
        if summary["has_text"]:
            detail = client.messages.get(summary["id"])
            if "text" in detail.get("truncated", []):
                lines.append("note:    the .txt holds the start of the text the message detail has; the .eml has all of it")
            text = detail.get("text")
            if text is None:
                left_out.append("text (none in its detail)")
            else:
                offer("text", MailFile(f"{name}.txt", "txt", "text/plain", text.encode("utf-8")))
        if summary["size"] > FILE_LIMIT:
            offer("eml", f"{_mebibytes(summary['size'])}, more than {_mebibytes(FILE_LIMIT)}: GET {message_path}/raw")
        elif summary["size"] > budget[0]:
            offer("eml", f"the report's {_mebibytes(REPORT_LIMIT)} for mail is used up")
        else:
            offer("eml", MailFile(f"{name}.eml", "eml", "message/rfc822", client.messages.raw(summary["id"])))
    except (MailSandboxError, OSError) as error:
        left_out.append(f"the rest (could not read it: {error})")
    kinds = [file.extension for file in attached]
    lines.append(f"files:   {', '.join(kinds) if kinds else 'none'}")
    if left_out:
        lines.append(f"left out: {'; '.join(left_out)}")
    return lines, attached


# Directives that only a header can carry; a <meta> policy ignores them (CSP Level 3, "the meta element").
_HEADER_ONLY = {"sandbox", "frame-ancestors", "report-uri", "report-to"}
# For a server that sent none: no script, nothing remote.
_FALLBACK_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:"
_DOCTYPE = re.compile(r"^\s*<!doctype[^>]*>", re.IGNORECASE)


def _with_policy(page: str, served: str | None) -> str:
    """The HTML with its Content-Security-Policy as a <meta> ahead of everything the mail wrote (after its doctype,
    so the mode it renders in stays): a report opens the file without the header the server sent, so the mail runs
    no script there and loads nothing the server would not have let it."""
    kept = [
        directive.strip()
        for directive in (served or "").split(";")
        if directive.strip() and directive.split()[0].lower() not in _HEADER_ONLY
    ]
    policy = "; ".join(kept) if any(re.match(r"default-src\s", directive, re.IGNORECASE) for directive in kept) else _FALLBACK_POLICY
    attribute = policy.replace("&", "&amp;").replace('"', "&quot;")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{attribute}">'
    doctype = _DOCTYPE.match(page)
    if doctype is None:
        return meta + page
    return page[: doctype.end()] + meta + page[doctype.end() :]


def _file_title(subject: str) -> str:
    """The subject as part of a file name: no control characters or path separators, at most 60 characters."""
    title = re.sub(r"\s+", " ", re.sub(r'[\x00-\x1f\x7f-\x9f/\\:*?"<>|]+', " ", subject)).strip()
    if title == "":
        return "(no subject)"
    return title if len(title) <= 60 else title[:59] + "…"


def _mebibytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"
