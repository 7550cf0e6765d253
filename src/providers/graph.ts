// The Graph client: authentication-context class references (the Graph beta API).
import { expectObject, expectSame, expectString } from './answer-shape.js';
import { listByNextLink } from './paging.js';
import type { RequestSender } from './transport.js';

/** An authentication-context class reference as Graph returns it. */
export interface AuthContextBody {
  readonly id: string;
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly isAvailable?: boolean;
}

/** The properties a PATCH may change; left-out ones keep their values, null clears a text. */
export interface AuthContextPatch {
  readonly displayName?: string | null;
  readonly description?: string | null;
  readonly isAvailable?: boolean;
}

const BASE = '/beta/identity/conditionalAccess/authenticationContextClassReferences';

export class GraphClient {
  constructor(private readonly t: RequestSender) {}

  private path(id: string): string {
    return `${BASE}/${encodeURIComponent(id)}`;
  }

  /** The reference, or undefined when the id is unknown. */
  async getAuthContext(id: string): Promise<AuthContextBody | undefined> {
    const res = await this.t.request({ method: 'GET', path: this.path(id), label: `authContexts/${id}`, accept: [404] });
    if (res.status === 404) return undefined;
    const body = expectObject(res, res.body, 'an authentication context');
    expectSame(res, 'id', expectString(res, body, 'id'), id);
    return body as unknown as AuthContextBody;
  }

  /** Every reference (all pages: @odata.nextLink); each item holds what GET returns but '@odata.context'. */
  listAuthContexts(): Promise<AuthContextBody[]> {
    return listByNextLink<AuthContextBody>(this.t, { method: 'GET', path: BASE, label: 'authContexts' });
  }

  /** Creates or updates (the PATCH is an upsert); answers 204. */
  async patchAuthContext(id: string, props: AuthContextPatch): Promise<void> {
    await this.t.request({ method: 'PATCH', path: this.path(id), body: props, label: `authContexts/${id}` });
  }

  /** Deletes the reference; an unknown id is success. */
  async deleteAuthContext(id: string): Promise<void> {
    await this.t.request({ method: 'DELETE', path: this.path(id), label: `authContexts/${id}`, accept: [404] });
  }
}
