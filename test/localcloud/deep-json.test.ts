// JSON nested 45,000 deep: every service of the local cloud answers 400 in its own error shape,
// the conversation connector included (it used to overflow its stack and answer 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_PATH, AUTH_PATH, startCloud, TOKEN, WORKSPACE, type Cloud } from '../e2e/harness.js';

const DEEP = '{"a":'.repeat(45_000) + '1' + '}'.repeat(45_000);

describe('a request body nested 45,000 deep', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it.each([
    ['the conversation connector (send to a conversation)', 'POST', '/v3/conversations/a%3Ax/activities'],
    ['the conversation connector (create a conversation)', 'POST', '/v3/conversations'],
    ['ARM (container group PUT)', 'PUT', ARM_PATH('deep')],
    ['Graph (auth context PATCH)', 'PATCH', AUTH_PATH('c7')],
    ['analytics (push dataset POST)', 'POST', `/v1.0/myorg/groups/${WORKSPACE}/datasets`],
  ])('%s answers 400', async (_service, method, path) => {
    const res = await fetch(cloud.url + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: `{"activity":${DEEP},"x":${DEEP}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('nested deeper than 64 levels');
  });
});
