// The official Graph client against the local cloud: a base URL, a token provider, and the
// local host named as one the client may send its token to. Resolves to what it saw (host.mjs runs it).
import { Client } from '@microsoft/microsoft-graph-client';

export default async function graph(baseUrl, token) {
  const client = Client.init({
    authProvider: (done) => done(null, token),
    baseUrl: `${baseUrl}/`,
    defaultVersion: 'beta',
    customHosts: new Set([new URL(baseUrl).hostname]),
  });
  const path = '/identity/conditionalAccess/authenticationContextClassReferences';
  await client.api(`${path}/c42`).patch({ displayName: 'From the SDK', description: 'official client', isAvailable: true });
  const got = await client.api(`${path}/c42`).get();
  const list = await client.api(path).get();
  await client.api(`${path}/c42`).delete();
  let gone = false;
  try {
    await client.api(`${path}/c42`).get();
  } catch (err) {
    gone = err.statusCode === 404;
  }
  return { got: got.displayName, listed: list.value.map((c) => c.id), gone };
}
