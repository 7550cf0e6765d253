// The conversation-connector client: conversations, activities, members, attachments.
import { expectArrayBody, expectItems, expectObject, expectString } from './answer-shape.js';
import { listByContinuation } from './paging.js';
import type { RequestSender, TransportResponse } from './transport.js';

/** Status codes the connector asks to retry with backoff (SERVICES.md). */
export const CONNECTOR_RETRY_STATUSES: readonly number[] = [429, 502, 504];

/** An activity, a member, or conversation parameters: the connector's own JSON, passed through. */
export type ConnectorBody = Readonly<Record<string, unknown>>;

/** ResourceResponse: the id of what was created or changed. */
export interface ResourceResponse {
  readonly id: string;
}

/** ConversationResourceResponse. */
export interface ConversationResource {
  readonly id: string;
  readonly activityId?: string;
  readonly serviceUrl?: string;
}

/** ChannelAccount. */
export interface ChannelAccount {
  readonly id: string;
  readonly name?: string;
  readonly [field: string]: unknown;
}

/** AttachmentData (upload). */
export interface AttachmentData {
  readonly name?: string;
  readonly type?: string;
  readonly originalBase64?: string;
  readonly thumbnailBase64?: string;
}

/** AttachmentInfo. */
export interface AttachmentInfo {
  readonly name?: string;
  readonly type?: string;
  readonly views?: readonly { readonly viewId: string; readonly size?: number }[];
}

/** The bytes of one attachment view. */
export interface AttachmentContent {
  readonly contentType?: string;
  readonly bytes: Uint8Array;
}

const enc = encodeURIComponent;

/** Checks an answer's shape and gives it its type. */
type Shape<T> = (res: TransportResponse) => T;

/** An object with a text `id` (ResourceResponse, ConversationResourceResponse). */
const withId =
  <T>(what: string): Shape<T> =>
  (res) => {
    expectString(res, expectObject(res, res.body, what), 'id');
    return res.body as T;
  };
const anObject =
  <T>(what: string): Shape<T> =>
  (res) =>
    expectObject(res, res.body, what) as T;
const members: Shape<ChannelAccount[]> = (res) => expectItems(res, expectArrayBody(res, res.body, 'a member list'), 'member', ['id']) as ChannelAccount[];
const nothing: Shape<undefined> = () => undefined;
const conv = (id: string): string => `/v3/conversations/${enc(id)}`;

/**
 * Errors carry the X-Correlating-OperationId as correlationId. Sends are POSTs and not retried
 * on a lost answer (a duplicate message is possible); 429 is retried.
 */
export class ConnectorClient {
  constructor(private readonly t: RequestSender) {}

  private async call<T>(shape: Shape<T>, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, label: string, body?: unknown): Promise<T> {
    const res = await this.t.request({ method, path, body, label });
    return shape(res);
  }

  createConversation(params: ConnectorBody): Promise<ConversationResource> {
    return this.call(withId('a conversation'), 'POST', '/v3/conversations', 'conversations', params);
  }

  sendToConversation(conversationId: string, activity: ConnectorBody): Promise<ResourceResponse> {
    return this.call(withId('a resource response'), 'POST', `${conv(conversationId)}/activities`, `conversations/${conversationId}/activities`, activity);
  }

  replyToActivity(conversationId: string, activityId: string, activity: ConnectorBody): Promise<ResourceResponse> {
    return this.call(withId('a resource response'), 'POST', `${conv(conversationId)}/activities/${enc(activityId)}`, `activities/${activityId}`, activity);
  }

  updateActivity(conversationId: string, activityId: string, activity: ConnectorBody): Promise<ResourceResponse> {
    return this.call(withId('a resource response'), 'PUT', `${conv(conversationId)}/activities/${enc(activityId)}`, `activities/${activityId}`, activity);
  }

  async deleteActivity(conversationId: string, activityId: string): Promise<void> {
    await this.call(nothing, 'DELETE', `${conv(conversationId)}/activities/${enc(activityId)}`, `activities/${activityId}`);
  }

  uploadAttachment(conversationId: string, data: AttachmentData): Promise<ResourceResponse> {
    return this.call(withId('a resource response'), 'POST', `${conv(conversationId)}/attachments`, `conversations/${conversationId}/attachments`, data);
  }

  getAttachmentInfo(attachmentId: string): Promise<AttachmentInfo> {
    return this.call(anObject('an attachment info'), 'GET', `/v3/attachments/${enc(attachmentId)}`, `attachments/${attachmentId}`);
  }

  /** The bytes of a view; a redirect to the content is followed. */
  async getAttachment(attachmentId: string, viewId: string): Promise<AttachmentContent> {
    const res = await this.t.request({
      method: 'GET',
      path: `/v3/attachments/${enc(attachmentId)}/views/${enc(viewId)}`,
      binary: true,
      label: `attachments/${attachmentId}`,
    });
    return { contentType: res.headers.get('content-type') ?? undefined, bytes: res.bytes ?? new Uint8Array() };
  }

  getConversationMembers(conversationId: string): Promise<ChannelAccount[]> {
    return this.call(members, 'GET', `${conv(conversationId)}/members`, `conversations/${conversationId}/members`);
  }

  /** Every member, following continuationToken. */
  getConversationPagedMembers(conversationId: string, pageSize?: number): Promise<ChannelAccount[]> {
    return listByContinuation<ChannelAccount>(
      this.t,
      {
        method: 'GET',
        path: `${conv(conversationId)}/pagedmembers`,
        label: `conversations/${conversationId}/pagedmembers`,
        query: { pageSize },
      },
      'members',
      (item, page, i) => {
        expectItems(page, [item], `member #${i + 1}`, ['id']);
      },
    );
  }
}
