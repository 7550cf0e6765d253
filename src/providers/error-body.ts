// Reads each service's error shape (CloudError, Graph, analytics, Fabric, connector, LCS) into code, message, ids.

/** What an error body says, whatever the service. */
export interface ParsedErrorBody {
  readonly code?: string;
  readonly message?: string;
  readonly requestId?: string;
  /** Fabric's isRetriable, when the body carries it. */
  readonly retriable?: boolean;
}

const MAX_TEXT = 300;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The nested `{error:{code,message,...}}` shape of ARM, billing, Graph, analytics and the connector. */
function parseNested(error: Record<string, unknown>): ParsedErrorBody {
  const inner = obj(error.innerError) ?? obj(error.innererror);
  const http = obj(error.innerHttpError);
  const httpBody = http ? str(http.body) : undefined;
  const base = str(error.message) ?? (httpBody ? httpBody.slice(0, MAX_TEXT) : undefined);
  return {
    code: str(error.code),
    message: base,
    requestId: inner ? (str(inner['request-id']) ?? str(inner.requestId)) : undefined,
  };
}

/** Parses an error body of any of the services; unknown shapes give a truncated text. */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  const o = obj(body);
  if (o) {
    const nested = obj(o.error);
    if (nested) return parseNested(nested);
    if (str(o.errorCode)) {
      return {
        code: str(o.errorCode),
        message: str(o.message),
        requestId: str(o.requestId),
        retriable: typeof o.isRetriable === 'boolean' ? o.isRetriable : undefined,
      };
    }
    if (str(o.ErrorMessage)) return { message: str(o.ErrorMessage) };
    if (str(o.message) || str(o.code)) return { code: str(o.code), message: str(o.message) };
    return {};
  }
  if (typeof body === 'string' && body.trim().length > 0) return { message: body.trim().slice(0, MAX_TEXT) };
  return {};
}
