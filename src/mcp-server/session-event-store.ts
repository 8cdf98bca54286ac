import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
}

/**
 * The messages one MCP session sent on its SSE streams, so that a client whose stream broke can reconnect with
 * `Last-Event-ID` and get what it missed (resumable streams). Kept in memory, as the session itself is: a session
 * does not outlive the daemon. Holds the newest `maxEvents`; a cursor older than those is refused, and the client
 * starts over.
 */
export class SessionEventStore implements EventStore {
  private seq = 0;
  private readonly events = new Map<EventId, StoredEvent>();

  constructor(private readonly maxEvents: number) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `e${++this.seq}`;
    this.events.set(id, { seq: this.seq, streamId, message });
    // A Map iterates in insertion order: the first key is the oldest event.
    if (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value!);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error(`unknown or expired event id ${lastEventId}`);
    for (const [id, event] of this.events) {
      // A priming event (an empty message) only gives the client a cursor; there is nothing in it to replay.
      if (event.seq <= last.seq || event.streamId !== last.streamId || Object.keys(event.message).length === 0) continue;
      await send(id, event.message);
    }
    return last.streamId;
  }
}
