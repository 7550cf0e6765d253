// The container-group manifests the benchmarks apply and plan: one shape, many addresses.

/** The local cloud's container-group quota per subscription and location: benches spread groups over subscriptions. */
export const PER_SUBSCRIPTION = 100;

/** The subscription of the i-th group, so no subscription holds more than its quota. */
export function subscription(i, prefix = '8f0e0c49-3b5a-4d62-9d1c') {
  return `${prefix}-${String(Math.floor(i / PER_SUBSCRIPTION)).padStart(12, '0')}`;
}

/** A ContainerGroup manifest: `g` = {name, sub, rg, dependsOn?, image? (default nginx:1.27, quoted as written)}. */
export function groupManifest(g) {
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: ${g.name}${g.dependsOn ? `\n  dependsOn: [${g.dependsOn}]` : ''}
spec:
  subscriptionId: ${g.sub}
  resourceGroup: ${g.rg}
  location: westeurope
  tags: {team: bench}
  properties:
    osType: Linux
    containers:
      - name: app
        properties:
          image: ${g.image ?? 'nginx:1.27'}
          ports: [{port: 80}]
          resources: {requests: {cpu: 0.5, memoryInGB: 1}}
          environmentVariables:
            - {name: MODE, value: bench}
`;
}
