// `moor schema | head -1`: once the reader has closed the pipe, output ends quietly (exit as usual).

const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Swallows writes to a stream whose reader went away, so the command finishes (an apply still
 * records its changes) instead of dying with `write EPIPE`. Any other stream error is a bug.
 */
export function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (!CLOSED.has(err.code ?? '')) throw err;
    // Writes after this one would fail the same way; they go nowhere instead.
    stream.write = () => true;
  });
}
