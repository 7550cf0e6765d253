// The guide's snippet of the three official clients (docs/local-cloud.md, its ```js block), run as
// the page writes it against the local cloud: read from the page, not copied, so the page cannot
// show a construction the clients or the cloud no longer take. One call of each client; resolves to
// what it saw (host.mjs runs it).
import { readFileSync } from 'node:fs';
import { ContainerInstanceManagementClient } from '@azure/arm-containerinstance';
import { Client } from '@microsoft/microsoft-graph-client';
import { ConnectorClient } from 'botframework-connector';

// The token is the snippet's own (the page's cloud line gives the same one).
export default async function documented(baseUrl, _token, subscriptionId, documentedUrl) {
  const page = readFileSync(new URL('../../docs/local-cloud.md', import.meta.url), 'utf8');
  const snippet = /```js\n([\s\S]*?)```/.exec(page)[1].replaceAll(documentedUrl, baseUrl);
  // The snippet's names in scope, as its imports and the caller's subscription would give them.
  const clients = new Function(
    'ContainerInstanceManagementClient',
    'Client',
    'ConnectorClient',
    'subscriptionId',
    `${snippet}\nreturn { aci, graph, connector };`,
  );
  const { aci, graph, connector } = clients(ContainerInstanceManagementClient, Client, ConnectorClient, subscriptionId);

  const usage = [];
  for await (const u of aci.location.listUsage('westeurope')) usage.push(u.name?.value);
  const contexts = await graph.api('/identity/conditionalAccess/authenticationContextClassReferences').get();
  const members = await connector.conversations.getConversationMembers('19:ops-alerts');
  return { usage: usage.includes('ContainerGroups'), contexts: Array.isArray(contexts.value), members: Array.isArray(members) };
}
