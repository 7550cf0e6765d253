// The official connector client against the local cloud: a base URI and a credential that signs
// requests with a bearer token. Resolves to what it saw (host.mjs runs it).
import { ConnectorClient } from 'botframework-connector';

export default async function connector(baseUri, token) {
  const credentials = {
    signRequest: async (request) => {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  const client = new ConnectorClient(credentials, { baseUri });
  const conversation = '19:ops-alerts';
  const from = { id: '28:sdk-bot', name: 'sdk' };
  const sent = await client.conversations.sendToConversation(conversation, { type: 'message', text: 'hello from the SDK', from });
  await client.conversations.updateActivity(conversation, sent.id, { type: 'message', text: 'edited by the SDK', from });
  const members = await client.conversations.getConversationMembers(conversation);
  await client.conversations.deleteActivity(conversation, sent.id);
  return { sent: typeof sent.id === 'string', members: members.length };
}
