// One conversation per operation (as the CDK toolkit's IoHost): while an operation runs, every message
// of its session — the engine's progress and notices, the transport's waits, a lock taken over — goes
// to the operation's host, stamped with a time, a level and a code, beside the operation's results;
// a user's error that ends it is said too (`run_failed`), once, before it is thrown.
import { UserError } from '../../core/diagnostics.js';
import type { Session } from '../session.js';
import { ioMessage } from './io-message.js';
import type { OperationHost } from './operation-host.js';
import type { RunEvent, RunEventOf } from './run-events.js';

/** Says an event to the operation's host; a result is awaited (a display may finish drawing first). */
export type Tell = (event: RunEvent) => Promise<void>;

type FailedCommand = RunEventOf<'run_failed'>['command'];

/** Runs `body` as one conversation of `session` with `host`; `command` names the run a failure ends. */
export async function converse<T>(session: Session, host: OperationHost, command: FailedCommand, body: (tell: Tell) => Promise<T>): Promise<T> {
  const tell: Tell = async (event) => {
    await host.notify(ioMessage(event, host.now?.() ?? new Date()));
  };
  const restore = session.divert((event) => {
    void host.notify(ioMessage(event, host.now?.() ?? new Date()));
  });
  try {
    return await body(tell);
  } catch (err) {
    if (err instanceof UserError) await tellFailure(tell, command, err);
    throw err;
  } finally {
    restore();
  }
}

/** The failures said already: an error passing several conversations (the CLI's own around the engine's) is said once. */
const told = new WeakSet<UserError>();

/** Says `run_failed` for a user's error, unless it was said already. */
export async function tellFailure(tell: (event: RunEvent) => void | Promise<void>, command: FailedCommand, error: UserError): Promise<void> {
  if (told.has(error)) return;
  told.add(error);
  await tell({ type: 'run_failed', command, error });
}
