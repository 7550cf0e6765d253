// The official container-instance client against the local cloud: only a base URL, a static
// TokenCredential and the seeds' api-version. Resolves to what it saw (host.mjs runs it).
import { ContainerInstanceManagementClient } from '@azure/arm-containerinstance';

export default async function containerInstance(endpoint, token, subscriptionId) {
  /** @type {import('@azure/core-auth').TokenCredential} */
  const credential = { getToken: async () => ({ token, expiresOnTimestamp: Date.now() + 3_600_000 }) };
  const client = new ContainerInstanceManagementClient(credential, subscriptionId, { endpoint, apiVersion: '2026-07-01' });

  const group = {
    location: 'westeurope',
    osType: 'Linux',
    containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: 1, memoryInGB: 1.5 } }, ports: [{ port: 80 }] }],
  };
  const poll = { updateIntervalInMs: 50 };
  const created = await client.containerGroups.beginCreateOrUpdateAndWait('rg-sdk', 'sdk-web', group, poll);
  const fetched = await client.containerGroups.get('rg-sdk', 'sdk-web');
  const listed = [];
  for await (const g of client.containerGroups.listByResourceGroup('rg-sdk')) listed.push(g.name);
  const usage = [];
  for await (const u of client.location.listUsage('westeurope')) usage.push(u.name?.value);
  await client.containerGroups.beginDeleteAndWait('rg-sdk', 'sdk-web', poll);
  let gone = false;
  try {
    await client.containerGroups.get('rg-sdk', 'sdk-web');
  } catch (err) {
    gone = err.statusCode === 404;
  }
  return { created: created.provisioningState, fetched: fetched.name, listed, usage, gone };
}
