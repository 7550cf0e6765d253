// Every service the local cloud hosts; each module is one LocalService (see ../types.ts).
import type { LocalService } from '../types.js';
import { armContainerGroups } from './arm/container-groups.js';
import { armUsage } from './arm/usage.js';
import { armNameAvailability } from './arm/name-availability.js';
import { armBilling } from './arm/billing.js';
import { graphAuthContexts } from './graph/auth-contexts.js';
import { analyticsDatasets } from './analytics/datasets.js';
import { lcsDatabaseMovement } from './lcs/database-movement.js';
import { fabricEventstreams } from './fabric/eventstreams.js';
import { connector } from './connector/connector.js';

export const SERVICES: LocalService[] = [
  armContainerGroups,
  armUsage,
  armNameAvailability,
  armBilling,
  graphAuthContexts,
  analyticsDatasets,
  lcsDatabaseMovement,
  fabricEventstreams,
  connector,
];
