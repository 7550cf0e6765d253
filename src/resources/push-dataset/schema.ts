// JSON Schema of the PushDataset spec: workspace, retention and the analytics service's CreateDatasetRequest.
import type { JsonObject } from '../../core/json.js';
import { array, boolean, enumOf, nonEmpty, object, openEnumOf, patterned, string } from '../../core/schema-parts.js';

/** Table and relationship names: 1 to 100 characters from a restricted set (the analytics service's naming rule). */
const tableName = patterned('^[\\p{L}\\p{N} _.()-]+$', 'must be 1 to 100 letters, digits, spaces, "_", "-", ".", "(" or ")"', { minLength: 1, maxLength: 100 });
/** Column and measure names: printable characters, no control characters or brackets. */
const memberName = patterned('^[^\\p{Cc}\\[\\]]+$', 'must be 1 to 100 printable characters without "[" or "]"', { minLength: 1, maxLength: 100 });
const uuidOrEmpty = patterned('^$|^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', 'must be a UUID or empty');

const column = object(
  {
    name: memberName,
    // The service reads type names ignoring case and the seed's list is not complete: an open list.
    dataType: openEnumOf(['Int64', 'Double', 'Decimal', 'Boolean', 'bool', 'DateTime', 'String']),
    dataCategory: string(),
    formatString: string(),
    isHidden: boolean,
    sortByColumn: memberName,
    summarizeBy: string(),
  },
  ['name', 'dataType'],
);

const measure = object(
  {
    name: memberName,
    expression: nonEmpty,
    description: string(),
    formatString: string(),
    isHidden: boolean,
  },
  ['name', 'expression'],
);

const table = object(
  {
    name: tableName,
    description: string(),
    isHidden: boolean,
    columns: array(column, { maxItems: 75 }),
    measures: array(measure),
    rows: array(object({ id: string() })),
    source: array(object({ expression: nonEmpty }, ['expression'])),
  },
  ['name', 'columns'],
);

const relationship = object(
  {
    name: tableName,
    fromTable: tableName,
    fromColumn: memberName,
    toTable: tableName,
    toColumn: memberName,
    crossFilteringBehavior: enumOf(['OneDirection', 'BothDirections', 'Automatic']),
  },
  ['name', 'fromTable', 'fromColumn', 'toTable', 'toColumn'],
);

const connectionDetails = object(
  Object.fromEntries(['account', 'classInfo', 'database', 'domain', 'emailAddress', 'kind', 'loginServer', 'path', 'server', 'url'].map((k) => [k, string()])),
);

const datasource = object({
  datasourceType: string(),
  connectionDetails,
  datasourceId: uuidOrEmpty,
  gatewayId: uuidOrEmpty,
  connectionString: string({ deprecated: true }),
  name: string({ deprecated: true }),
});

export const specSchema: JsonObject = object(
  {
    workspaceId: { type: 'string', format: 'uuid' },
    name: { ...nonEmpty, defaultsToMetadataName: true },
    defaultRetentionPolicy: enumOf(['None', 'basicFIFO']),
    tables: array(table, { minItems: 1, maxItems: 75 }),
    relationships: array(relationship, { maxItems: 75 }),
    datasources: array(datasource),
    defaultMode: enumOf(['AsVendor', 'AsOnPrem', 'Push', 'Streaming', 'PushStreaming']),
  },
  ['workspaceId', 'tables'],
);
