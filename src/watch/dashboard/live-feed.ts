// The dashboard's live updates: what the watch loop and the engine's event stream tell, passed on to
// every open page as server-sent events. It listens; it never asks the engine or a service anything.
import type { OutgoingHttpHeaders } from 'node:http';
import type { EventSink } from '../../core/events.js';
import type { LiveMessage } from './api-types.js';
import { stackField } from './stack-field.js';

/** A comment line every so often keeps proxies and the browser from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** An open page's stream, as the listener serves it (its output edge masks what is written). */
export interface EventClient {
  openStream(headers: OutgoingHttpHeaders): void;
  write(chunk: string): boolean;
  onClose(listener: () => void): void;
}

export class LiveFeed {
  private readonly clients = new Set<EventClient>();
  private heartbeat: NodeJS.Timeout | undefined;

  /** A listener of the engine's event stream of one stack: apply's steps and throttled requests. */
  engineEvents(stack: string | undefined): EventSink {
    const name = stackField(stack);
    return (e) => {
      if (this.clients.size === 0) return;
      if (e.type === 'step_started') this.send({ type: 'step', stack: name, address: e.address, phase: 'started' });
      else if (e.type === 'step_finished') this.send({ type: 'step', stack: name, address: e.outcome.address, phase: 'finished', status: e.outcome.status });
      else if (e.type === 'request_answered' && e.status === 429) this.send({ type: 'throttled', stack: name, service: e.service });
    };
  }

  /** The watch loop finished a cycle of a stack. */
  cycle(stack: string | undefined, result: string): void {
    this.send({ type: 'cycle', stack: stackField(stack), result });
  }

  /** Holds `res` open as an event stream until the page goes away. */
  open(res: EventClient): void {
    res.openStream({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': moor watch live updates\n\n');
    this.clients.add(res);
    res.onClose(() => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopHeartbeat();
    });
    this.heartbeat ??= setInterval(() => this.write(': heartbeat\n\n'), HEARTBEAT_MS).unref();
  }

  get listeners(): number {
    return this.clients.size;
  }

  private send(message: LiveMessage): void {
    this.write(`event: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private write(chunk: string): void {
    for (const res of this.clients) res.write(chunk);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
