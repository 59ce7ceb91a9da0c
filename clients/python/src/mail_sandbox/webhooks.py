"""Checking a webhook delivery's X-Sandbox-Signature: ``t=<unix seconds>,v1=<hex>``, where v1 is the lowercase hex
HMAC-SHA256 of ``<t>.<raw body>`` keyed with the webhook's secret (openapi.yaml, the Webhooks tag)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from typing import Literal, cast

from .types import WebhookEvent

SIGNATURE_HEADER = "X-Sandbox-Signature"
DEFAULT_TOLERANCE_SECONDS = 300
"""How far the signature's timestamp may be from the receiver's clock: the spec's "about five minutes"."""

WebhookVerificationFailure = Literal["signature_missing", "signature_malformed", "signature_mismatch", "timestamp_out_of_tolerance"]

_TIMESTAMP = re.compile(r"\d{1,12}")
_SIGNATURE = re.compile(r"[0-9a-fA-F]{64}")


class WebhookVerificationError(Exception):
    """A delivery that is not what the service signed with this secret, or was signed too long ago: answer it 4xx."""

    def __init__(self, code: WebhookVerificationFailure, message: str) -> None:
        super().__init__(message)
        self.code: WebhookVerificationFailure = code
        self.message = message


def _header_value(headers: Mapping[str, str] | str) -> str | None:
    if isinstance(headers, str):
        return headers
    value = headers.get(SIGNATURE_HEADER)
    if value is not None:
        return value
    # A plain dict is case-sensitive; http.server's, WSGI frameworks' and requests' header maps are not.
    for name, candidate in headers.items():
        if name.lower() == SIGNATURE_HEADER.lower():
            return candidate
    return None


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str] | str,
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> WebhookEvent:
    """Verifies a delivery and returns its parsed body (a ``message.received`` or ``webhook.test`` event).

    `body` is the request body exactly as it arrived, before any JSON parsing (a str is taken as its UTF-8 bytes);
    `headers` the request's headers (any mapping, any case of names) or the X-Sandbox-Signature value itself. Raises
    `WebhookVerificationError` saying why when the signature is missing, malformed, or matches no ``v1`` under `secret`
    (compared in constant time), or when its timestamp is further than `tolerance` seconds from `now` (default: this
    machine's clock), which refuses a replayed delivery.

    >>> event = verify_webhook(request.get_data(), request.headers, secret)  # doctest: +SKIP
    """
    header = _header_value(headers)
    if header is None:
        raise WebhookVerificationError("signature_missing", f"the request has no {SIGNATURE_HEADER} header")
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and _TIMESTAMP.fullmatch(value):
            timestamp = int(value)
        elif name == "v1" and _SIGNATURE.fullmatch(value):
            signatures.append(value.lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError(
            "signature_malformed", f"{SIGNATURE_HEADER} {header[:200]!r} is not t=<unix seconds>,v1=<64 hex digits>"
        )
    raw = body.encode("utf-8") if isinstance(body, str) else body
    expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("ascii") + raw, hashlib.sha256).hexdigest()
    # Every v1 is compared, in constant time, so how much of a guess matched does not leak.
    matched = False
    for signature in signatures:
        matched = hmac.compare_digest(expected, signature) or matched
    if not matched:
        raise WebhookVerificationError(
            "signature_mismatch",
            f"{SIGNATURE_HEADER} does not match the body under this secret "
            "(a wrong secret, or a body changed or re-encoded on the way)",
        )
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > tolerance:
        raise WebhookVerificationError(
            "timestamp_out_of_tolerance",
            f"the signature's timestamp {timestamp} is {clock - timestamp:.0f} s from this receiver's clock, "
            f"more than the {tolerance:g} s allowed",
        )
    return cast(WebhookEvent, json.loads(raw))
