// moor discover for container groups: every group of a subscription (or of the named resource
// groups) by ARM's list, and the spec a person would write for one: the secrets ARM hides named
// (a secure environment variable, a registry password, a file share key, a log workspace key).
import { isObject, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import type { Adoption, AdoptedSpec, Discovered, KindContext, Observed } from '../../core/kind.js';
import type { ContainerGroupBody } from '../../providers/arm.js';
import { groupId, parseGroupId, specOf, outputsOf } from './mapping.js';
import { shownValue } from '../spec-shared/spec-text.js';

type Secret = AdoptedSpec['secrets'][number];
type Unwritten = AdoptedSpec['unwritten'][number];

function found(live: ContainerGroupBody): Discovered | undefined {
  const at = typeof live.id === 'string' ? parseGroupId(live.id) : undefined;
  if (!at) return undefined;
  const observed: Observed = { id: groupId(at), spec: specOf(at, live), outputs: outputsOf(live) };
  return {
    observed,
    name: at.name,
    home: at.resourceGroup.toLowerCase(),
    distinguishedBy: `resource group ${at.resourceGroup}`,
    suffix: at.resourceGroup.toLowerCase(),
  };
}

async function list(ctx: KindContext, scope: Parameters<Adoption['list']>[1], listed: (count: number, where: string) => void): Promise<Discovered[]> {
  const sub = scope.subscriptionId;
  if (sub === undefined) return [];
  const arm = ctx.providers.arm;
  const pages =
    scope.resourceGroups.length > 0
      ? scope.resourceGroups.map(async (rg) => {
          const groups = await arm.listContainerGroups(sub, rg);
          listed(groups.length, `resource group ${rg}`);
          return groups;
        })
      : [
          arm.listSubscriptionContainerGroups(sub).then((groups) => {
            listed(groups.length, `subscription ${sub}`);
            return groups;
          }),
        ];
  return (await Promise.all(pages)).flat().flatMap((g) => found(g) ?? []);
}

const items = (value: JsonValue | undefined): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);
const has = (o: JsonObject, key: string) => Object.hasOwn(o, key) && o[key] !== null;

/** The secrets ARM leaves out of its answers, each where the manifest needs a placeholder. */
function hiddenSecrets(name: string, props: JsonObject): { secrets: Secret[]; unwritten: Unwritten[] } {
  const secrets: Secret[] = [];
  const unwritten: Unwritten[] = [];
  const at = (...path: (string | number)[]): JsonPath => ['properties', ...path];
  for (const list of ['containers', 'initContainers'] as const) {
    items(props[list]).forEach((container, ci) => {
      const env = isObject(container.properties) ? container.properties.environmentVariables : undefined;
      items(env).forEach((variable, vi) => {
        // A secure variable comes back with its name only.
        if (has(variable, 'value') || has(variable, 'secureValue') || has(variable, 'secureValueReference')) return;
        secrets.push({ path: at(list, ci, 'properties', 'environmentVariables', vi, 'secureValue'), words: [name, shownValue(variable.name)] });
      });
    });
  }
  items(props.imageRegistryCredentials).forEach((cred, i) => {
    if (has(cred, 'password') || has(cred, 'passwordReference') || has(cred, 'identity')) return;
    secrets.push({ path: at('imageRegistryCredentials', i, 'password'), words: [name, shownValue(cred.server).split('.')[0], 'password'] });
  });
  items(props.volumes).forEach((volume, i) => {
    const share = volume.azureFile;
    if (isObject(share) && !has(share, 'storageAccountKey') && !has(share, 'storageAccountKeyReference')) {
      secrets.push({ path: at('volumes', i, 'azureFile', 'storageAccountKey'), words: [name, shownValue(volume.name), 'storage key'] });
    }
    if (isObject(volume.secret)) {
      unwritten.push({
        path: at('volumes', i, 'secret'),
        reason:
          "the service hides a secret volume's files (their names and contents): written empty; moor keeps the live files until you list them (each as FILE: ${env:NAME}), and refuses to write the group while it is empty",
      });
    }
  });
  items(props.extensions).forEach((_ext, i) => {
    unwritten.push({
      path: at('extensions', i, 'properties', 'protectedSettings'),
      reason: 'the service hides protected settings: if the extension has any, add them before its next write',
    });
  });
  const logs = isObject(props.diagnostics) ? props.diagnostics.logAnalytics : undefined;
  if (isObject(logs)) {
    if (!has(logs, 'workspaceKey')) secrets.push({ path: at('diagnostics', 'logAnalytics', 'workspaceKey'), words: [name, 'log workspace key'] });
    unwritten.push({
      path: at('diagnostics', 'logAnalytics', 'workspaceResourceId'),
      reason: 'the service hides it: if the group sends logs by workspace resource id, add it before its next write',
    });
  }
  return { secrets, unwritten };
}

export const adoption: Adoption = {
  list,
  toSpec({ observed, name }) {
    const spec = structuredClone(observed.spec);
    // "No identity" is what a group without one has: a person writes nothing.
    if (isObject(spec.identity) && spec.identity.type === 'None') delete spec.identity;
    const props = isObject(spec.properties) ? spec.properties : {};
    return { spec, ...hiddenSecrets(name, props) };
  },
};
