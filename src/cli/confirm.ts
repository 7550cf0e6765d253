// The apply confirmation: only on a terminal, only 'yes' proceeds.
import { createInterface } from 'node:readline/promises';

export async function confirmApply(): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question("\nDo you want to perform these actions?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ");
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}
