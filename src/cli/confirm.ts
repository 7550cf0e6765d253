// The apply confirmation: only on a terminal, only 'yes' proceeds; Ctrl-C and Ctrl-D answer too.
import { createInterface } from 'node:readline';

/** 'interrupted': Ctrl-C; 'closed': Ctrl-D or end of input. */
export type Confirmation = 'yes' | 'no' | 'interrupted' | 'closed';

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

/** The one line and exit code of an apply that was not approved. */
export function cancelled(answer: Exclude<Confirmation, 'yes'>): { line: string; code: number } {
  if (answer === 'interrupted') return { line: '\nApply cancelled (interrupted); nothing was changed.', code: 130 };
  if (answer === 'closed') return { line: '\nApply cancelled: no answer (end of input); nothing was changed.', code: 1 };
  return { line: 'Apply cancelled; nothing was changed.', code: 1 };
}
