"""The daemon the scenarios run against: test/fixtures/sdk-daemon.ts (errandd behind a fault-injecting proxy, with a
scripted model), started once per session and driven over its stdin and stdout (sdk/scenarios.md)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SDK = Path(__file__).resolve().parent.parent
REPO = SDK.parent.parent
sys.path.insert(0, str(SDK / "src"))


class SdkDaemon:
    """The fixture process: ``url`` and ``key`` to talk to, ``command()`` to drive its proxy."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self._lock = threading.Lock()
        ready = self._read()
        self.url: str = ready["url"]
        self.direct_url: str = ready["direct_url"]
        self.key: str = ready["key"]
        self.home: str = ready["home"]

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"test/fixtures/sdk-daemon.ts ended (exit {self.process.wait()}) without answering")
        return json.loads(line)

    def command(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        with self._lock:
            self.process.stdin.write(json.dumps(command) + "\n")
            self.process.stdin.flush()
            reply = self._read()
        if not reply.get("ok"):
            raise RuntimeError(f"sdk-daemon refused {command}: {reply}")
        return reply

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def daemon() -> Iterator[SdkDaemon]:
    # `npm test` builds first; bin/errandd runs dist/.
    process = subprocess.Popen(
        ["node", "--import", "tsx", "test/fixtures/sdk-daemon.ts"],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=None,
        text=True,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )
    fixture = SdkDaemon(process)
    try:
        yield fixture
    finally:
        fixture.close()
