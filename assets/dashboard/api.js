// Talking to moor watch: JSON documents and the live stream, with the listener's bearer token when it has one.
// The token comes in the URL's fragment (#token=…), which the browser never sends to a server, or from the
// form the page shows after a 401; it is kept for this tab only (sessionStorage) and sent as a bearer header.

const TOKEN_KEY = 'moor-watch-token';

/** Takes a token from the fragment into this tab's storage and removes it from the address bar. */
export function adoptTokenFromFragment() {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (!m) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
  history.replaceState(null, '', location.pathname + location.search + '#/resources');
}

export function setToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** @returns {Record<string, string>} */
function headers() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}` } : {};
}

export class Unauthorized extends Error {}

export async function getJson(path) {
  const res = await fetch(path, { headers: headers(), cache: 'no-store' });
  if (res.status === 401) throw new Unauthorized('this watch needs its token');
  if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).trim()}`);
  return res.json();
}

/**
 * Follows /api/events (server-sent events) through fetch, as EventSource cannot send a bearer
 * header. Calls onMessage(type, data) per event and onState('live' | 'reconnecting' | 'unauthorized');
 * reconnects with a growing pause. Returns a function that stops it.
 */
/**
 * @param {(type: string, data: import('../../src/watch/dashboard/api-types.ts').LiveMessage) => void} onMessage
 * @param {(state: 'live' | 'reconnecting' | 'unauthorized') => void} onState
 */
export function followEvents(onMessage, onState) {
  let stopped = false;
  let controller;
  let pause = 500;
  const run = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const res = await fetch('/api/events', { headers: headers(), signal: controller.signal, cache: 'no-store' });
        if (res.status === 401) {
          onState('unauthorized');
          return;
        }
        if (!res.ok || !res.body) throw new Error(String(res.status));
        onState('live');
        pause = 500;
        await readEvents(res.body, onMessage);
      } catch {
        if (stopped) return;
      }
      onState('reconnecting');
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 10_000);
    }
  };
  run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

async function readEvents(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) type = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onMessage(type, JSON.parse(data));
    }
  }
}
