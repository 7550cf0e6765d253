// Unit tests of the local database-movement handlers: results, the daily limit, lazy status.
import { describe, expect, it } from 'vitest';
import { exportDatabase, fetchStatus, listEnvironmentOperations, refreshDatabase } from '../../../src/localcloud/services/lcs/database-movement.js';
import { seedDatabaseMovement } from '../../../src/localcloud/services/lcs/database-movement-store.js';
import { fakeContext, request, type FakeContext } from './fake-context.js';

const PROJECT = '1234567';
const PROD = 'a1b2c3d4-0000-4000-8000-000000000001';
const UAT = 'a1b2c3d4-0000-4000-8000-000000000002';
const TEST = 'a1b2c3d4-0000-4000-8000-000000000003';
const VERSION = { 'x-vendor-version': '2017-09-15' };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Result {
  IsSuccess: boolean;
  OperationActivityId: string;
  ErrorMessage: string | null;
  VersionEOL: string;
  OperationStatus?: string;
}

function seeded(): FakeContext {
  const data: Record<string, unknown> = {};
  seedDatabaseMovement(data);
  return fakeContext(data);
}

function refresh(ctx: FakeContext, source = PROD, target = UAT, headers: Record<string, string> = VERSION, project = PROJECT) {
  const params = { projectId: project, sourceEnvironmentId: source, targetEnvironmentId: target };
  const res = refreshDatabase(request('POST', '/', { params, headers }), ctx);
  expect(res.status).toBe(200);
  return res.body as Result;
}

function exportDb(ctx: FakeContext, backupName = 'nightly', environmentId = UAT) {
  const res = exportDatabase(request('POST', '/', { params: { projectId: PROJECT, environmentId, backupName } }), ctx);
  expect(res.status).toBe(200);
  return res.body as Result;
}

function status(ctx: FakeContext, activity: string, environmentId = UAT) {
  const params = { projectId: PROJECT, environmentId, operationActivityId: activity };
  return fetchStatus(request('GET', '/', { params, headers: VERSION }), ctx).body as Result;
}

function finish(ctx: FakeContext) {
  ctx.advance(3_000);
}

describe('database refresh and export', () => {
  it('accepts a refresh: IsSuccess true, a GUID activity id, no error, a VersionEOL', () => {
    const r = refresh(seeded());
    expect(r.IsSuccess).toBe(true);
    expect(r.OperationActivityId).toMatch(GUID);
    expect(r.ErrorMessage).toBeNull();
    expect(r.VersionEOL).toBeTruthy();
  });

  it.each([
    ['no x-vendor-version header', () => refresh(seeded(), PROD, UAT, {}), 'x-vendor-version'],
    ['another x-vendor-version', () => refresh(seeded(), PROD, UAT, { 'x-vendor-version': '2020-01-01' }), '2020-01-01'],
    ['the same source and target', () => refresh(seeded(), UAT, UAT), 'different'],
    ['an unknown project', () => refresh(seeded(), PROD, UAT, VERSION, '999'), 'Project 999'],
    ['an unknown environment', () => refresh(seeded(), PROD, 'a1b2c3d4-0000-4000-8000-00000000ffff'), 'not found'],
    ['a production target', () => refresh(seeded(), UAT, PROD), 'production'],
    ['an export of production', () => exportDb(seeded(), 'b', PROD), 'production'],
  ])('answers 200 with IsSuccess false for %s', (_reason, call, fragment) => {
    const r = call();
    expect(r.IsSuccess).toBe(false);
    expect(r.ErrorMessage).toContain(fragment);
  });

  it('refuses the fourth operation on an environment within 24 hours, counting a refresh for its target', () => {
    const ctx = seeded();
    expect(exportDb(ctx).IsSuccess).toBe(true);
    finish(ctx);
    expect(refresh(ctx, PROD, UAT).IsSuccess).toBe(true);
    finish(ctx);
    expect(refresh(ctx, TEST, UAT).IsSuccess).toBe(true);
    finish(ctx);
    const fourth = refresh(ctx, PROD, UAT);
    expect(fourth.IsSuccess).toBe(false);
    expect(fourth.ErrorMessage).toContain('The maximum of 3 database operations per environment in 24 hours has been reached');
    expect(exportDb(ctx, 'other', TEST).IsSuccess).toBe(true); // the sources' own quota is untouched
    ctx.advance(24 * 60 * 60 * 1000);
    expect(refresh(ctx, PROD, UAT).IsSuccess).toBe(true);
  });

  it('refuses a second operation while one is in progress on the environment', () => {
    const ctx = seeded();
    exportDb(ctx);
    const second = refresh(ctx);
    expect(second.IsSuccess).toBe(false);
    expect(second.ErrorMessage).toContain('in progress');
  });
});

describe('database movement status', () => {
  it('progresses lazily NotStarted -> InProgress -> Completed', () => {
    const ctx = seeded();
    const id = refresh(ctx).OperationActivityId;
    expect(status(ctx, id).OperationStatus).toBe('NotStarted');
    ctx.advance(1000);
    expect(status(ctx, id).OperationStatus).toBe('InProgress');
    ctx.advance(1000);
    const done = status(ctx, id);
    expect(done).toMatchObject({ IsSuccess: true, OperationActivityId: id, OperationStatus: 'Completed', ErrorMessage: null });
    expect(status(ctx, id, PROD).OperationStatus).toBe('Completed'); // also addressable by the source
  });

  it('ends Failed for a backup name containing "fail"', () => {
    const ctx = seeded();
    const id = exportDb(ctx, 'will-fail-1').OperationActivityId;
    finish(ctx);
    const r = status(ctx, id);
    expect(r.OperationStatus).toBe('Failed');
    expect(r.ErrorMessage).toContain('will-fail-1');
  });

  it('keeps the phase length an operation started with', () => {
    const ctx = seeded();
    const id = exportDb(ctx).OperationActivityId;
    // The same data served by a local cloud whose operations now take no time.
    expect(status({ ...ctx, operationPhaseMs: 0 }, id).OperationStatus).toBe('NotStarted');
  });

  it('answers IsSuccess false for an unknown activity', () => {
    const r = status(seeded(), '0f0f0f0f-0000-4000-8000-000000000000');
    expect(r.IsSuccess).toBe(false);
    expect(r.ErrorMessage).toContain('not found');
  });

  it('logs each accepted operation of an environment for the local-only operations route', () => {
    const ctx = seeded();
    const id = refresh(ctx).OperationActivityId;
    refresh(ctx); // refused: in progress, not logged
    const res = listEnvironmentOperations(request('GET', '/', { params: { environmentId: UAT } }), ctx);
    const ops = (res.body as { operations: Record<string, string>[] }).operations;
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ kind: 'refresh', activityId: id, sourceEnvironmentId: PROD, status: 'NotStarted' });
  });
});
