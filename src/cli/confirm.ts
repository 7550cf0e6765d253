// The apply confirmation: only on a terminal, only 'yes' proceeds; Ctrl-C and Ctrl-D answer too.
import { createInterface } from 'node:readline';
import type { Confirmation } from '../engine/operations/operation-host.js';

export type { Confirmation };

/** Asks at `input` (a terminal), writing the question to `output`. */
export function confirmApply(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<Confirmation> {
  const rl = createInterface({ input, output });
  return new Promise<Confirmation>((resolve) => {
    let answered = false;
    const finish = (answer: Confirmation) => {
      if (answered) return;
      answered = true;
      resolve(answer);
      rl.close();
    };
    rl.on('SIGINT', () => finish('interrupted'));
    rl.on('close', () => finish('closed'));
    rl.question("\nDo you want to perform these actions?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ", (answer) => {
      finish(answer.trim() === 'yes' ? 'yes' : 'no');
    });
  });
}
