// The official clients' scripts, run one after another in this one process: each script's module
// exports its run (a base URL, a token, a subscription, and what more it takes) resolving to what it
// saw. A process per script loaded the clients' packages again for each (about 0.6-1.2 CPU-s apiece);
// what the scripts prove needs only what a process reads when it starts, NODE_EXTRA_CA_CERTS, which
// the test gives this process as a user's shell would give theirs.
//   stdin: one JSON request a line, {"script": "graph.mjs", "args": [...]}
//   stdout: one JSON answer a line, in order, {"report": {...}} or {"error": "..."}
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { script, args } = JSON.parse(line);
  let answer;
  try {
    const { default: run } = await import(new URL(script, import.meta.url).href);
    answer = { report: await run(...args) };
  } catch (err) {
    answer = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
