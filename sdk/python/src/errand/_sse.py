"""Server-sent events (the WHATWG parsing rules), fed line by line so both clients share it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ServerSentEvent:
    event: str = "message"
    data: str = ""
    id: str | None = None
    retry: int | None = None


@dataclass
class SSEDecoder:
    _data: list[str] = field(default_factory=list)
    _event: str | None = None
    _id: str | None = None
    _retry: int | None = None

    def decode(self, line: str) -> ServerSentEvent | None:
        """One line (without its end): the event it completes, if any."""
        line = line.rstrip("\r\n")
        if line == "":
            if not self._data and self._event is None and self._id is None:
                return None
            event = ServerSentEvent(event=self._event or "message", data="\n".join(self._data), id=self._id, retry=self._retry)
            self._data, self._event, self._id, self._retry = [], None, None, None
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        elif name == "retry" and value.isdigit():
            self._retry = int(value)
        return None
