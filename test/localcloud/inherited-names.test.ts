// Names every JavaScript object inherits ('__proto__', 'constructor', 'toString') taken from a request path
// name nothing stored: each service answers its own not-found, never a 500 from a lookup that found
// Object.prototype's members.
import { describe, expect, it } from 'vitest';
import { call, cloud, SUB } from './helpers.js';

const INHERITED = ['__proto__', 'constructor', 'toString'];
const CI = 'api-version=2026-07-01';

describe('a local cloud asked for a name every object inherits', () => {
  it.each(INHERITED)("answers a container group operation '%s' with 404 OperationNotFound", async (name) => {
    const c = await cloud();
    const answer = await call(`${c.url}/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/westeurope/operations/${name}?${CI}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('OperationNotFound');
  });

  it.each(INHERITED)("answers a push dataset '%s' with 404 ItemNotFound", async (name) => {
    const c = await cloud();
    const answer = await call(`${c.url}/v1.0/myorg/groups/${SUB}/datasets/${name}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ItemNotFound');
  });

  it.each(INHERITED)("answers a conversation '%s' with 404 ConversationNotFound", async (name) => {
    const c = await cloud();
    const answer = await call(`${c.url}/v3/conversations/${name}/members`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ConversationNotFound');
  });

  it.each(INHERITED)("answers an attachment '%s' with 404 AttachmentNotFound", async (name) => {
    const c = await cloud();
    const answer = await call(`${c.url}/v3/attachments/${name}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('AttachmentNotFound');
  });

  it.each(INHERITED)("refuses a database export of project '%s' as not found", async (name) => {
    const c = await cloud();
    const answer = await call(`${c.url}/databasemovement/v1/export/project/${name}/environment/x/backupName/b`, {
      method: 'POST',
      headers: { 'x-vendor-version': '2017-09-15' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ IsSuccess: false, ErrorMessage: `Project ${name} was not found or you do not have access to it.` });
  });

  it("refuses a PATCH of an authentication context with a property named 'constructor' as unknown", async () => {
    const c = await cloud();
    const answer = await call(`${c.url}/beta/identity/conditionalAccess/authenticationContextClassReferences/c1`, {
      method: 'PATCH',
      body: { constructor: true },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe("Invalid property 'constructor': authenticationContextClassReference has no such property.");
  });
});
