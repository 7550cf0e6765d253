// The notify target's token: a missing variable is named where the config sets it (notify:), not
// under a credentials: key the user never wrote.
import { describe, expect, test } from 'vitest';
import { notifyConnector } from '../../src/notify/notify-connector.js';
import type { MoorConfig } from '../../src/engine/config.js';

const notify = { serviceUrl: 'http://127.0.0.1:9/', conversationId: '19:ops-alerts', bot: { id: '28:moor-bot' } };

describe('notifyConnector', () => {
  test('notify.tokenEnv naming an unset variable is reported as notify.tokenEnv', async () => {
    const config: MoorConfig = { endpoints: {}, credentials: {}, notify: { ...notify, tokenEnv: 'MOOR_TEST_BOT_TOKEN_UNSET' } };
    const client = notifyConnector(config, {});
    await expect(client.sendToConversation('19:ops-alerts', { type: 'message', text: 'hi' })).rejects.toThrow(
      'notify.tokenEnv names MOOR_TEST_BOT_TOKEN_UNSET, which is not set or empty',
    );
  });

  test('credentials.connector.tokenEnv keeps its own name', async () => {
    const config: MoorConfig = { endpoints: {}, credentials: { connector: { tokenEnv: 'MOOR_TEST_BOT_TOKEN_UNSET' } }, notify };
    await expect(notifyConnector(config, {}).sendToConversation('19:ops-alerts', { type: 'message', text: 'hi' })).rejects.toThrow(
      'credentials.connector.tokenEnv names MOOR_TEST_BOT_TOKEN_UNSET',
    );
  });
});
