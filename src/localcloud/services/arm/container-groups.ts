// ARM container groups on the local cloud: PUT/GET/DELETE, lists, and their operation resources.
import type { LocalService } from '../../types.js';
import { armResponseHeaders, cloudErrorBody } from './cloud-error.js';
import { deleteContainerGroup, getContainerGroup, listContainerGroups, putContainerGroup } from './container-group-handlers.js';
import { getOperationResult, getOperationStatus } from './container-group-operations.js';
import { CONTAINER_INSTANCE_NS } from './vendor.js';

const SUB = '/subscriptions/:subscriptionId';
const GROUPS = `${SUB}/resourceGroups/:resourceGroupName/providers/${CONTAINER_INSTANCE_NS}/containerGroups`;
const LOCATION = `${SUB}/providers/${CONTAINER_INSTANCE_NS}/locations/:location`;

export const armContainerGroups: LocalService = {
  name: 'arm',
  routes: [
    { method: 'PUT', path: `${GROUPS}/:containerGroupName`, handler: putContainerGroup },
    { method: 'GET', path: `${GROUPS}/:containerGroupName`, handler: getContainerGroup },
    { method: 'DELETE', path: `${GROUPS}/:containerGroupName`, handler: deleteContainerGroup },
    { method: 'GET', path: GROUPS, handler: listContainerGroups },
    { method: 'GET', path: `${SUB}/providers/${CONTAINER_INSTANCE_NS}/containerGroups`, handler: listContainerGroups },
    { method: 'GET', path: `${LOCATION}/operations/:operationId`, handler: getOperationStatus },
    { method: 'GET', path: `${LOCATION}/operationResults/:operationId`, handler: getOperationResult },
  ],
  errorBody: (_status, code, message) => cloudErrorBody(code, message),
  responseHeaders: armResponseHeaders,
};
