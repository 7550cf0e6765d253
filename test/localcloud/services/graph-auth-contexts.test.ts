// Unit tests of the local Graph auth-context handlers, called directly with a fake context.
import { describe, expect, it } from 'vitest';
import { deleteAuthContext, getAuthContext, listAuthContexts, patchAuthContext } from '../../../src/localcloud/services/graph/auth-contexts.js';
import { fakeContext, request } from './fake-context.js';

const path = (id: string) => `/beta/identity/conditionalAccess/authenticationContextClassReferences/${id}`;
const patch = (id: string, body: unknown) => request('PATCH', path(id), { params: { id }, body });
const get = (id: string) => request('GET', path(id), { params: { id } });

describe('graph auth contexts', () => {
  it('creates on the first PATCH (204, no body) and returns the record on GET', () => {
    const ctx = fakeContext();
    const res = patchAuthContext(patch('c1', { id: 'c1', displayName: 'MFA', description: 'Require MFA', isAvailable: true }), ctx);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(ctx.saves).toBe(1);
    const got = getAuthContext(get('c1'), ctx);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: 'c1', displayName: 'MFA', description: 'Require MFA', isAvailable: true });
    expect((got.body as Record<string, string>)['@odata.context']).toContain('$metadata#identity/conditionalAccess/authenticationContextClassReferences');
  });

  it('updates only the properties sent', () => {
    const ctx = fakeContext();
    patchAuthContext(patch('c2', { displayName: 'A', description: 'first', isAvailable: true }), ctx);
    patchAuthContext(patch('c2', { description: 'second' }), ctx);
    expect(getAuthContext(get('c2'), ctx).body).toMatchObject({ displayName: 'A', description: 'second', isAvailable: true });
  });

  it.each([
    ['an id outside c1..c99', 'c100', { displayName: 'x' }, 'invalidRequest'],
    ['an id not of the c-form', 'abc', { displayName: 'x' }, 'invalidRequest'],
    ['a property of the wrong type', 'c3', { isAvailable: 'yes' }, 'invalidRequest'],
    ['an unknown property', 'c3', { colour: 'red' }, 'invalidRequest'],
    ['a body id that differs from the path', 'c3', { id: 'c4' }, 'invalidRequest'],
    ['a body that is not an object', 'c3', [1], 'invalidRequest'],
  ])('refuses %s with 400 in the Graph error shape', (_reason, id, body, code) => {
    const ctx = fakeContext();
    const res = patchAuthContext(patch(id, body), ctx);
    expect(res.status).toBe(400);
    const err = (res.body as { error: { code: string; message: string; innerError: Record<string, string> } }).error;
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(0);
    expect(err.innerError['request-id']).toBe(ctx.requestId);
    expect(err.innerError.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(ctx.saves).toBe(0);
  });

  it('answers 404 for an unknown id on GET and DELETE', () => {
    const ctx = fakeContext();
    expect(getAuthContext(get('c9'), ctx).status).toBe(404);
    const del = deleteAuthContext(request('DELETE', path('c9'), { params: { id: 'c9' } }), ctx);
    expect(del.status).toBe(404);
    expect((del.body as { error: { code: string } }).error.code).toBe('itemNotFound');
  });

  it('deletes with 204, after which GET is 404', () => {
    const ctx = fakeContext();
    patchAuthContext(patch('c5', { displayName: 'x' }), ctx);
    expect(deleteAuthContext(request('DELETE', path('c5'), { params: { id: 'c5' } }), ctx).status).toBe(204);
    expect(getAuthContext(get('c5'), ctx).status).toBe(404);
  });

  it('lists in id order with an @odata.context', () => {
    const ctx = fakeContext();
    for (const id of ['c10', 'c2', 'c1']) patchAuthContext(patch(id, { displayName: id }), ctx);
    const body = listAuthContexts(request('GET', path('')), ctx).body as { value: { id: string }[] };
    expect(body.value.map((v) => v.id)).toEqual(['c1', 'c2', 'c10']);
  });
});
