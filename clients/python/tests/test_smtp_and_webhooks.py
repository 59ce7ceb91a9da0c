"""Mail sent with Python's smtplib to an inbox's own SMTP login, and a real webhook delivery checked by verify_webhook."""

from __future__ import annotations

import hashlib
import hmac
import json
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import mail, send, smtp_send
from mail_sandbox import InboxWithCredentials, MailSandbox, WebhookVerificationError, verify_webhook


def test_mail_sent_over_starttls_is_captured_byte_for_byte(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    message = mail("Your sign-in code", to="alice@example.test", text="Your code is 482913. It expires in 10 minutes.")
    smtp_send(inbox, message)
    captured = mail_sandbox.wait_for(inbox, to="alice@example.test", since=mark["since"])
    assert captured["subject"] == "Your sign-in code"
    assert captured["envelope_from"] == "app@example.test"
    assert captured["tls"] is True
    assert captured["codes"][0]["value"] == "482913"
    # smtplib sends the message with CRLF line ends; the server keeps what it received.
    assert mail_sandbox.messages.raw(captured) == message.as_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def test_mail_sent_over_implicit_tls_is_captured(mail_sandbox: MailSandbox, inbox: InboxWithCredentials) -> None:
    mark = mail_sandbox.mark(inbox)
    smtp_send(inbox, mail("Over SMTPS", to="bob@example.test"), implicit_tls=True)
    captured = mail_sandbox.wait_for(inbox, subject="Over SMTPS", since=mark["since"])
    assert (captured["recipients"], captured["tls"]) == (["bob@example.test"], True)


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes


@pytest.fixture
def receiver() -> Iterator[tuple[str, queue.Queue[Delivery]]]:
    """A webhook receiver on loopback: its URL, and the deliveries it got, each answered 204."""
    deliveries: queue.Queue[Delivery] = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            deliveries.put(Delivery(dict(self.headers.items()), body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks/mail", deliveries
    server.shutdown()
    server.server_close()


def test_a_real_delivery_verifies_and_a_forged_or_stale_one_does_not(
    mail_sandbox: MailSandbox, inbox: InboxWithCredentials, receiver: tuple[str, queue.Queue[Delivery]],
) -> None:
    url, deliveries = receiver
    webhook = mail_sandbox.webhooks.create(url, inbox=inbox)
    try:
        assert webhook["inbox_id"] == inbox["id"]
        assert webhook["id"] in [hook["id"] for hook in mail_sandbox.webhooks.list()]
        sent = send(mail_sandbox, inbox, "Hooked")
        delivery = deliveries.get(timeout=60)
        test_delivery_id = mail_sandbox.webhooks.test(webhook)
        # Delivery is at least once: a repeat of the message's may come first.
        test_delivery = next(got for got in iter(lambda: deliveries.get(timeout=60), None) if b'"webhook.test"' in got.body)
        recorded = {record["id"]: record for record in mail_sandbox.webhooks.deliveries(webhook)}
    finally:
        mail_sandbox.webhooks.delete(webhook)
    assert webhook["id"] not in [hook["id"] for hook in mail_sandbox.webhooks.list()]
    assert recorded[test_delivery_id]["event"] == "webhook.test"
    assert [record["message_id"] for record in recorded.values() if record["event"] == "message.received"] == [sent]
    test_event = verify_webhook(test_delivery.body, test_delivery.headers, webhook["secret"])
    assert test_event["event"] == "webhook.test" and test_event["data"]["webhook_id"] == webhook["id"]

    event = verify_webhook(delivery.body, delivery.headers, webhook["secret"])
    assert event["event"] == "message.received"
    assert event["data"]["id"] == sent
    assert event["data"]["subject"] == "Hooked"
    lower = {name.lower(): value for name, value in delivery.headers.items()}
    assert verify_webhook(delivery.body.decode("utf-8"), lower, webhook["secret"])["event"] == "message.received"
    signature = delivery.headers["X-Sandbox-Signature"]
    assert verify_webhook(delivery.body, signature, webhook["secret"])["event"] == "message.received"

    timestamp = int(signature.split(",")[0].removeprefix("t="))

    def refused(body: bytes, header: dict[str, str] | str, secret: str = webhook["secret"], **options: float) -> str:
        with pytest.raises(WebhookVerificationError) as error:
            verify_webhook(body, header, secret, **options)
        return error.value.code

    assert refused(delivery.body, signature, "whsec_wrong") == "signature_mismatch"
    assert refused(delivery.body.replace(b"Hooked", b"Hacked"), signature) == "signature_mismatch"
    assert refused(delivery.body, {"Content-Type": "application/json"}) == "signature_missing"
    assert refused(delivery.body, "t=soon,v1=abc") == "signature_malformed"
    assert refused(delivery.body, signature, now=timestamp + 301) == "timestamp_out_of_tolerance"
    assert refused(delivery.body, signature, now=timestamp - 301) == "timestamp_out_of_tolerance"
    assert verify_webhook(delivery.body, signature, webhook["secret"], now=timestamp + 301, tolerance=600)["event"] == "message.received"


def test_a_signature_is_hmac_sha256_of_the_timestamp_and_body_under_the_secret() -> None:
    body = json.dumps({"event": "webhook.test", "created_at": "2026-12-03T00:00:00.000Z", "data": {"webhook_id": "wh_1", "message": "hi"}}).encode()
    digest = hmac.new(b"s3cret", b"1764720000." + body, hashlib.sha256).hexdigest()
    assert verify_webhook(body, f"t=1764720000,v1={digest}", "s3cret", now=1764720000)["event"] == "webhook.test"
    assert verify_webhook(body, f"t=1764720000, v1={digest}", "s3cret", now=1764720300)["event"] == "webhook.test"
    with pytest.raises(WebhookVerificationError) as other_time:
        verify_webhook(body, f"t=1764720001,v1={digest}", "s3cret", now=1764720000)
    assert other_time.value.code == "signature_mismatch"
