// What apply tells its listeners (the listr2 UI, plain CI lines, tests); the engine never prints.
// The outcome type lives on the ground floor with the one event stream (core/events.ts).
import type { EventSink, StepOutcome } from '../../core/events.js';

export type { StepOutcome, StepStatus } from '../../core/events.js';

export interface ApplyListener {
  started?(address: string, action: string): void;
  progress?(address: string, message: string): void;
  finished?(outcome: StepOutcome): void;
}

/** The listener as a sink of the one event stream: step events go to it, the rest is dropped. */
export function listenerSink(listener: ApplyListener): EventSink {
  return (e) => {
    if (e.type === 'step_started') listener.started?.(e.address, e.action);
    else if (e.type === 'progress') listener.progress?.(e.address, e.message);
    else if (e.type === 'step_finished') listener.finished?.(e.outcome);
  };
}

/** A listener whose calls become events of the stream (what apply emits, as typed events). */
export function sinkListener(sink: EventSink): ApplyListener {
  return {
    started: (address, action) => sink({ type: 'step_started', address, action }),
    progress: (address, message) => sink({ type: 'progress', address, message }),
    finished: (outcome) => sink({ type: 'step_finished', outcome }),
  };
}
