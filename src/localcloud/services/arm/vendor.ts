// The brand word of ARM provider namespaces, kept in one place (DESIGN.md: the seeds write `Vendor`).
export const VENDOR = 'Vendor';

export const CONTAINER_INSTANCE_NS = `${VENDOR}.ContainerInstance`;
export const CONTAINER_GROUP_TYPE = `${CONTAINER_INSTANCE_NS}/containerGroups`;
export const SQL_NS = `${VENDOR}.Sql`;
export const BILLING_NS = `${VENDOR}.Billing`;

/** api-version values of the seeds. */
export const API_VERSIONS = {
  containerInstance: '2026-07-01',
  sql: '2025-01-01',
  billing: '2024-04-01',
} as const;
