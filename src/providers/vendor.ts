// The one brand word of the real services, and every identifier built from it (DESIGN.md: keep it in one place).

/** The brand word the seeds write as `Vendor`; change it here to address the real services. */
export const VENDOR = 'Vendor';

const lower = VENDOR.toLowerCase();

/** ARM provider namespaces derived from the brand word. */
export const NAMESPACES = {
  containerInstance: `${VENDOR}.ContainerInstance`,
  sql: `${VENDOR}.Sql`,
  billing: `${VENDOR}.Billing`,
} as const;

/** Header carrying the database-movement API version (`x-vendor-version`). */
export const VERSION_HEADER = `x-${lower}-version`;

/** Content type of an adaptive-card attachment for the conversation connector. */
export const CARD_CONTENT_TYPE = `application/vnd.${lower}.card.adaptive`;
