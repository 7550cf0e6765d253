// Notifications: the connector client of the `notify:` target — its own serviceUrl and token source.
import type { MoorConfig, NotifyConfig } from '../engine/config.js';
import { UserError } from '../core/diagnostics.js';
import { createConnectorClient } from '../providers/providers.js';
import type { ConnectorClient } from '../providers/connector.js';
import type { SecretRegistry } from '../core/masker.js';

/** The notify section, or a UserError telling how to add one. */
export function requireNotify(config: MoorConfig): NotifyConfig {
  if (config.notify) return config.notify;
  const where = config.file ?? 'moor.config.yaml';
  throw new UserError(`notifications need a notify: section in ${where}, for example:`, [], {
    example:
      'notify:\n  serviceUrl: https://connector.example.net/\n  conversationId: "19:ops-alerts"\n  bot: {id: "28:moor-bot", name: moor}\n  tokenEnv: BOT_TOKEN',
  });
}

/**
 * A connector client for notify.serviceUrl, whatever the other endpoints are (the built-in local
 * cloud included). The token comes from notify.tokenEnv/tokenCommand, else credentials.connector,
 * else MOOR_TOKEN.
 */
export function notifyConnector(config: MoorConfig, env: NodeJS.ProcessEnv, secrets?: SecretRegistry): ConnectorClient {
  const notify = requireNotify(config);
  const own = notify.tokenEnv || notify.tokenCommand ? { tokenEnv: notify.tokenEnv, tokenCommand: notify.tokenCommand, configKey: 'notify' } : undefined;
  const source = own ?? config.credentials.connector;
  return createConnectorClient(notify.serviceUrl, { credentials: source ? { connector: source } : {}, defaultToken: env.MOOR_TOKEN, env, secrets });
}
