// Plans, reports and a recording fake connector for the notification tests.
import { ServiceError } from '../../src/providers/service-error.js';
import type { NotifyConnector, NotifyTarget } from '../../src/notify/post-report.js';
import { summarize, type Plan, type PlannedChange } from '../../src/engine/plan/types.js';

export const TARGET: NotifyTarget = { serviceUrl: 'https://connector.example.net/', conversationId: '19:ops-alerts', bot: { id: '28:moor-bot', name: 'moor' } };

export function driftChange(address: string, before: string, after: string): PlannedChange {
  return {
    address,
    kind: address.split('/')[0],
    action: 'update',
    drift: true,
    destructive: false,
    fields: [{ path: '/displayName', op: 'replace', before, after, cause: 'drift', sensitive: false, forcesReplace: false }],
    patch: [{ op: 'replace', path: '/displayName', value: after }],
  };
}

export function planOf(changes: PlannedChange[]): Plan {
  return { format: 'moor-plan/1', serial: 3, changes, summary: summarize(changes), diagnostics: [] };
}

export interface Call {
  readonly op: 'send' | 'update' | 'reply' | 'upload';
  readonly conversationId: string;
  readonly activityId?: string;
  readonly body: Record<string, unknown>;
}

/** Records every call; `fail` makes an operation answer with a connector error of that status. */
export function fakeConnector(fail: Partial<Record<Call['op'], number>> = {}): NotifyConnector & { calls: Call[] } {
  const calls: Call[] = [];
  let next = 100;
  const answer = (call: Call) => {
    calls.push(call);
    // Every call takes an id, so ids never repeat across calls, failed ones included.
    const id = String(next++);
    const status = fail[call.op];
    if (status) {
      throw new ServiceError({
        service: 'connector',
        method: 'PUT',
        path: '/v3/x',
        label: 'activities/x',
        status,
        code: 'BadSyntax',
        serviceMessage: 'no',
        correlationId: 'corr-1',
      });
    }
    return Promise.resolve({ id });
  };
  return {
    calls,
    sendToConversation: (c, body) => answer({ op: 'send', conversationId: c, body: { ...body } }),
    updateActivity: (c, a, body) => answer({ op: 'update', conversationId: c, activityId: a, body: { ...body } }),
    replyToActivity: (c, a, body) => answer({ op: 'reply', conversationId: c, activityId: a, body: { ...body } }),
    uploadAttachment: (c, data) => answer({ op: 'upload', conversationId: c, body: { ...data } }),
  };
}
