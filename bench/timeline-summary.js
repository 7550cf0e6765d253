// What a request timeline (bench/request-timeline.cjs) says of a throttled run: when the first
// request went out, how long the requests took against what the bucket allows, and the tail.

/** `t`: the timeline; `burst` and `rate`: the service's bucket (tokens, tokens per second). */
export function summarizeTimeline(t, { burst, rate }) {
  const answered = t.requests.filter((r) => r.end !== undefined);
  const ok = answered.filter((r) => r.status !== 429);
  const firstAt = Math.min(...t.requests.map((r) => r.start));
  const lastAnswerAt = Math.max(...answered.map((r) => r.end));
  const span = (reads) => (reads.length ? { from: Math.min(...reads.map((r) => r.start)), to: Math.max(...reads.map((r) => r.end)) } : undefined);
  // The answers the bucket allows from the first request to the last: the burst, then the refill.
  const bucketMs = (Math.max(0, ok.length - burst) / rate) * 1000;
  return {
    requests: t.requests.length,
    throttled: answered.length - ok.length,
    firstAt,
    lastAnswerAt,
    exitAt: t.exitAt,
    /** Time the requests took beyond what the bucket allows: gaps with no request waiting to go. */
    slackMs: Math.max(0, lastAnswerAt - firstAt - bucketMs),
    tailMs: t.exitAt - lastAnswerAt,
    state: span(t.reads.state),
    manifests: span(t.reads.manifests),
    cpuMs: t.cpuMs,
  };
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** One line: start-up, requests, slack, tail and CPU of a summarized timeline. */
export function timelineLine(x) {
  const at = (what, sp) => (sp ? `${what} read ${s(sp.from)}-${s(sp.to)}` : `${what} not read`);
  return (
    `first request at ${s(x.firstAt)} (${at('manifests', x.manifests)}, ${at('state', x.state)}); ` +
    `${x.requests} requests (${x.throttled} answered 429), last answer at ${s(x.lastAnswerAt)}, ${s(x.slackMs)} beyond the bucket's pace; ` +
    `exit ${s(x.tailMs)} after the last answer; CPU ${s(x.cpuMs.user)} user + ${s(x.cpuMs.system)} system`
  );
}
