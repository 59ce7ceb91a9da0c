"""A timed-out wait's explanation (the API's `error.explain`) as a table a test log shows."""

from __future__ import annotations

from .types import WaitExplanation

# Widest a column is shown; longer values end in an ellipsis.
_WIDTH = {"from": 32, "to": 32, "subject": 40}


def _clipped(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def explanation_table(explain: WaitExplanation) -> str:
    """What the wait looked for and, for each recent message, the terms it failed, e.g.::

        looked for: from:app subject:hello (0 of 1 matched; server clock 2026-12-03T07:13:20.587Z)
        recent mail in the inbox, newest first:
          received                  from        to          subject              failed terms
          2026-12-03T07:13:20.070Z  app@x.test  bob@y.test  Reset your password  subject:hello
    """
    looked_for = " ".join(explain["terms"]) if explain["terms"] else "any message"
    head = (
        f"looked for: {looked_for} ({explain['matched']} of {explain['wanted']} matched; "
        f"server clock {explain['server_time']})"
    )
    if not explain["recent"]:
        return f"{head}\nthe inbox has no mail"
    rows = [["received", "from", "to", "subject", "failed terms"]]
    for message in explain["recent"]:
        rows.append(
            [
                message["received_at"],
                _clipped(message["from"], _WIDTH["from"]),
                _clipped(", ".join(message["recipients"]), _WIDTH["to"]),
                _clipped(message["subject"], _WIDTH["subject"]),
                ", ".join(message["failed_terms"]) if message["failed_terms"] else "(matched)",
            ]
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  " + "  ".join(cell if column == len(row) - 1 else cell.ljust(widths[column]) for column, cell in enumerate(row))
        for row in rows
    ]
    return "\n".join([head, "recent mail in the inbox, newest first:", *lines])
