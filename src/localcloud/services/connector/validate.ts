// Validation of connector activities and channel accounts, with the channel's message limits.
import { asSent } from '../../as-sent.js';
import type { Obj } from './store.js';

/** Longest message text the channel takes. */
export const MAX_TEXT_CHARS = 28_000;
/** Largest activity (serialised JSON, attachments included) the channel takes. */
export const MAX_ACTIVITY_BYTES = 100 * 1024;

const ACTIVITY_TYPES = [
  'message',
  'contactRelationUpdate',
  'conversationUpdate',
  'typing',
  'endOfConversation',
  'event',
  'invoke',
  'deleteUserData',
  'messageUpdate',
  'messageDelete',
  'installationUpdate',
  'messageReaction',
  'suggestion',
  'trace',
  'handoff',
];
const TEXT_FORMATS = ['markdown', 'plain', 'xml'];

export interface Problem {
  readonly code: string;
  readonly message: string;
}

const bad = (message: string): Problem => ({ code: 'BadArgument', message });

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a ChannelAccount is refused, or undefined. */
export function accountProblem(value: unknown, where: string): Problem | undefined {
  if (!isObj(value)) return bad(`${where} must be a ChannelAccount object.`);
  if (typeof value.id !== 'string' || value.id === '') return bad(`${where}.id is required.`);
  return undefined;
}

function attachmentsProblem(value: unknown): Problem | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return bad('attachments must be an array.');
  const index = value.findIndex((a) => !isObj(a) || typeof a.contentType !== 'string');
  return index >= 0 ? bad(`attachments[${index}] must be an object with a contentType.`) : undefined;
}

/** Why an activity is refused, or undefined when the channel takes it. */
export function activityProblem(value: unknown): Problem | undefined {
  if (!isObj(value)) return bad('The request body must be an Activity object.');
  if (typeof value.type !== 'string') return { code: 'MissingProperty', message: "The activity 'type' is required." };
  if (!ACTIVITY_TYPES.includes(value.type)) return bad(`Unknown activity type '${value.type}'.`);
  if (value.text !== undefined && typeof value.text !== 'string') return bad('text must be a string.');
  if (typeof value.text === 'string' && value.text.length > MAX_TEXT_CHARS) {
    return { code: 'MessageSizeTooBig', message: `The message text has ${value.text.length} characters; the channel takes at most ${MAX_TEXT_CHARS}.` };
  }
  if (value.textFormat !== undefined && !TEXT_FORMATS.includes(asSent(value.textFormat))) {
    return bad(`textFormat must be one of ${TEXT_FORMATS.join(', ')}.`);
  }
  const size = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (size > MAX_ACTIVITY_BYTES) {
    return {
      code: 'MessageSizeTooBig',
      message: `The activity is ${size} bytes; the channel takes at most ${MAX_ACTIVITY_BYTES}. Upload large content as an attachment.`,
    };
  }
  // SDK clients send partial accounts (an empty recipient id, say): only the shape is checked.
  for (const key of ['from', 'recipient'] as const) {
    const account = value[key];
    if (account !== undefined && (!isObj(account) || (account.id !== undefined && typeof account.id !== 'string'))) {
      return bad(`${key} must be a ChannelAccount object.`);
    }
  }
  return attachmentsProblem(value.attachments);
}
