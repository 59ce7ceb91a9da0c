"""Starts the real service (the built dist/ of this checkout) on free ports in a temporary data dir, for the suite's
session, on the profile SANDBOX_TEST_PROFILE names (embedded by default; cluster on the services that
scripts/services/up prints, in a namespace of its own that is purged afterwards)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[3]
STARTUP_SECONDS = 120
CLUSTER_SERVICES = ("SANDBOX_ELASTICSEARCH_URL", "SANDBOX_REDIS_URL", "SANDBOX_S3_URL", "SANDBOX_S3_ACCESS_KEY", "SANDBOX_S3_SECRET_KEY")


def profile_under_test() -> str:
    profile = os.environ.get("SANDBOX_TEST_PROFILE", "embedded") or "embedded"
    if profile not in ("embedded", "cluster"):
        raise RuntimeError(f"SANDBOX_TEST_PROFILE must be embedded or cluster, got {profile!r}")
    return profile


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    data_dir: str
    profile: str
    namespace: str | None
    url: str = ""
    smtp_port: int = 0
    smtps_port: int = 0
    api_key: str = ""
    logs: list[dict[str, Any]] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        try:
            if self.namespace is not None:
                purge = subprocess.run(
                    ["node", str(Path(__file__).with_name("purge-namespace.mjs")), self.namespace],
                    cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
                )
                if purge.returncode != 0:
                    raise RuntimeError(f"purging namespace {self.namespace} failed: {purge.stderr.strip()}")
        finally:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def start_server(extra_env: dict[str, str] | None = None) -> Server:
    """The server, once it listens: its URL, SMTP ports and the default workspace's key from its first-start log."""
    main = PROJECT_ROOT / "dist" / "src" / "main.js"
    if not main.exists():
        raise RuntimeError(f"{main} is missing: build the server first (node scripts/build-if-needed.mjs)")
    profile = profile_under_test()
    data_dir = tempfile.mkdtemp(prefix="mail-sandbox-pytest-")
    env = {
        **os.environ,
        "SANDBOX_DATA_DIR": data_dir,
        "SANDBOX_HTTP_PORT": "0",
        "SANDBOX_SMTP_PORT": "0",
        "SANDBOX_SMTPS_PORT": "0",
        "SANDBOX_BIND": "127.0.0.1",
        "SANDBOX_SHUTDOWN_GRACE_MS": "3000",
        # The webhook test's receiver listens on loopback over plain http.
        "SANDBOX_WEBHOOK_ALLOW_PRIVATE": "1",
        **(extra_env or {}),
    }
    namespace = None
    if profile == "cluster":
        missing = [name for name in CLUSTER_SERVICES if not env.get(name)]
        if missing:
            raise RuntimeError(f"the cluster profile needs {', '.join(missing)}: the variables scripts/services/up prints")
        namespace = f"pytest-{secrets.token_hex(8)}"
        env.update({"SANDBOX_PROFILE": "cluster", "SANDBOX_NAMESPACE": namespace})
    process = subprocess.Popen(
        ["node", str(main)], cwd=PROJECT_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    server = Server(process=process, data_dir=data_dir, profile=profile, namespace=namespace)
    listening = threading.Event()

    def read_stdout() -> None:
        # Read to the end, so that the server never blocks on a full pipe.
        assert process.stdout is not None
        for line in process.stdout:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if not isinstance(entry, dict):
                continue
            server.logs.append(entry)
            if isinstance(entry.get("api_key"), str):
                server.api_key = entry["api_key"]
            if isinstance(entry.get("http_port"), int):
                server.url = f"http://127.0.0.1:{entry['http_port']}"
                server.smtp_port = int(entry["smtp_port"])
                server.smtps_port = int(entry["smtps_port"])
                listening.set()
        listening.set()  # it exited: stop waiting

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            server.stderr.append(line.decode("utf-8", errors="replace"))

    threading.Thread(target=read_stdout, daemon=True).start()
    threading.Thread(target=read_stderr, daemon=True).start()
    if not listening.wait(STARTUP_SECONDS) or server.url == "":
        server.stop()
        raise RuntimeError(f"the server did not start listening (exit {process.poll()}): {''.join(server.stderr)[-4000:]}")
    if server.api_key == "":
        server.stop()
        raise RuntimeError("the server printed no api_key on its first start")
    return server
