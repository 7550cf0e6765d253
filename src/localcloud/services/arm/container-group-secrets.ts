// Removes what the service never returns: secure values, keys, passwords, protected settings, secret volume contents.
import { isObject, type JsonObject, type JsonValue } from '../../../core/json.js';

function each(value: JsonValue | undefined, fn: (item: JsonObject) => void): void {
  if (Array.isArray(value))
    value.forEach((item) => {
      if (isObject(item)) fn(item);
    });
}

function hideContainerSecrets(container: JsonObject): void {
  const props = container.properties;
  if (!isObject(props)) return;
  each(props.environmentVariables, (env) => {
    delete env.secureValue;
  });
}

/** Mutates a copy of a group body so it holds no secret. */
export function hideSecrets(body: JsonObject): JsonObject {
  const props = body.properties;
  if (!isObject(props)) return body;
  each(props.containers, hideContainerSecrets);
  each(props.initContainers, hideContainerSecrets);
  each(props.imageRegistryCredentials, (cred) => {
    delete cred.password;
  });
  each(props.volumes, (volume) => {
    if (isObject(volume.azureFile)) delete volume.azureFile.storageAccountKey;
    if ((volume.secret as JsonValue | undefined) !== undefined) volume.secret = {}; // a volume may have no secret
  });
  each(props.extensions, (ext) => {
    if (isObject(ext.properties)) delete ext.properties.protectedSettings;
  });
  const diagnostics = props.diagnostics;
  if (isObject(diagnostics) && isObject(diagnostics.logAnalytics)) {
    delete diagnostics.logAnalytics.workspaceKey;
    delete diagnostics.logAnalytics.workspaceResourceId;
  }
  return body;
}
