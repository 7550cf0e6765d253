// The contract between the engine and one kind: validation rules, diff rules, and the calls
// that read and change it. The engine knows no kind; a kind knows no HTTP (it calls providers).
import type { JsonObject, JsonPath, JsonValue } from './json.js';
import type { RequestContext } from './request-context.js';

/** Reports a problem at a path relative to `spec` (e.g. ['properties','volumes',0,'name']). */
export type Report = (path: JsonPath, message: string, options?: { severity?: 'error' | 'warning'; at?: 'key' | 'value' }) => void;

/**
 * Path patterns are slash-separated spec paths where `*` matches any key or array index,
 * e.g. 'properties/containers/*' + '/properties/resources'. A pattern covers its whole subtree.
 */
export interface DiffRules {
  /** Filled in or owned by the service: never a diff, never sent back as a change. */
  readonly serverPopulated: readonly string[];
  /** Never returned by the service (secrets): compared by salted hash against state only. */
  readonly writeOnly: readonly string[];
  /** A change here needs delete and create (plan shows -/+). */
  readonly immutable: readonly string[];
  /** Keyed arrays whose elements cannot be added or removed in place (membership change -> replace). */
  readonly immutableMembership?: readonly string[];
  /** Arrays of named things compared by key: array path pattern -> key field ('name'). */
  readonly arrayKeys: Readonly<Record<string, string>>;
  /**
   * What an update sends: the subtrees it sends whole (a PUT of the body, a table PUT). A live
   * value under them that the desired spec lacks is removed by the next write, so plan shows
   * its removal (drift when moor never set it). Elsewhere (a PATCH of changed properties) a
   * field the manifest never set is left alone. `summary` names the write for people.
   */
  readonly writes: { readonly summary: string; readonly whole: readonly string[] };
  /** Values the service fills in when a write leaves the field out: quiet while live holds exactly this. */
  readonly defaults?: Readonly<Record<string, JsonValue>>;
  /** How values at these paths compare where the service normalises them (ARM: locations, ids). */
  readonly compare?: Readonly<Record<string, ValueComparison>>;
  /** Objects whose keys compare ignoring case (maps keyed by ARM ids). */
  readonly ignoreCaseKeys?: readonly string[];
}

/** 'location': by canonical region name (lowercase, no spaces); 'ignoreCase': strings ignoring case. */
export type ValueComparison = 'location' | 'ignoreCase';

/**
 * The service clients a kind calls. The ground floor names no provider: providers/providers.ts
 * fills this interface in by declaration merging, so kinds see the real clients.
 */
export interface ServiceClients {
  /**
   * The same clients with every request attributed to one step (its priority in the request
   * queues, its interruption): apply hands each step's kind these, beside the step's `requests`.
   */
  forRequests(requests: RequestContext): ServiceClients;
}

export interface KindContext {
  readonly providers: ServiceClients;
  /** The step the kind works for (apply sets it; planning's reads belong to no step). */
  readonly requests?: RequestContext;
  /** Progress for humans (listr2 / plain lines); never secrets. */
  log(message: string): void;
  /** Wait between status reads of an operation the kind follows (set small for a local cloud). */
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
}

/** A live resource as read from its service. */
export interface Observed {
  /** The service's identifier: ARM id, dataset id, auth context id. */
  readonly id: string;
  /** The live resource in the shape of the spec (addressing fields included); hidden secrets absent. */
  readonly spec: JsonObject;
  /** What `${ref:Kind/name#/pointer}` reads: the service's own representation, secrets absent. */
  readonly outputs: JsonObject;
  /**
   * Set while the service is still carrying out a write it accepted (a group still provisioning after
   * an interrupted apply): what it is doing, for people. Apply waits for it (`awaitSettled`) before
   * what depends on it starts.
   */
  readonly inProgress?: string;
  /**
   * Set when the service ended the resource's last write failed (provisioningState Failed): what
   * it says, for people. Apply reports the resource failed (`awaitSettled` throws) and skips what depends on it.
   */
  readonly failed?: string;
}

/** What `read` is given to find one live resource. */
export interface ReadTarget {
  readonly name: string;
  readonly spec: JsonObject;
  readonly recordedId?: string;
  readonly pendingSince?: string;
}

/** What a listing says of one target: the live resource, `undefined` (absent), or 'read' (it cannot tell). */
export type ListAnswer = Observed | undefined | 'read';

/**
 * Reads by listing (e.g. each resource group's container groups, following nextLink) instead of
 * one GET per resource. Answers per target, in order: the live resource, `undefined` (the list
 * shows it absent), or 'read' (the list cannot tell: the engine calls `read` for it).
 * `answered`, when given, hears each target's answer as soon as its own listing is back, so the
 * engine compares what has arrived while later pages still wait for the service's tokens.
 */
export interface ListReader {
  /** The listed bodies hold everything the diff needs; when false, a found resource is read again with `read`. */
  readonly complete: boolean;
  readAll(ctx: KindContext, targets: readonly ReadTarget[], answered?: (index: number, answer: ListAnswer) => void): Promise<ListAnswer[]>;
  /**
   * Optional: reading that starts before every target is known (plan lists while manifests still
   * load). Answers as readAll's, by the order targets were added; `answered` as readAll's.
   */
  begin?(ctx: KindContext, answered?: (index: number, answer: ListAnswer) => void): ListRun;
}

/** A ListReader's reading in progress: targets are added as they become known, a listing may start at once. */
export interface ListRun {
  /** Adds the next target (its index is the number added before it). */
  add(target: ReadTarget): void;
  /**
   * Optional: a target likely to be added later, known from its manifest alone (plan has not read
   * state yet, so it carries no recorded id or last-applied spec). A listing may start for it, so
   * the requests overlap reading state; nothing is answered from it: only added targets are, each
   * from the listing of where it really is.
   */
  foresee?(target: ReadTarget): void;
  /** Every target is added: the answers once every listing is back. */
  finish(): Promise<ListAnswer[]>;
}

/**
 * How the engine reaches one resource kind. read never mutates; create and delete are
 * idempotent (repeating a create does not duplicate; deleting what is gone succeeds).
 * `spec` passed to create/update is fully resolved (secrets and refs substituted).
 */
export interface ResourceHandler {
  /**
   * `recordedId`: the identifier state recorded. `pendingSince`: a create was sent at that time
   * but its answer never recorded (a crash); a kind whose identifier the service assigns uses it
   * to find what that create made instead of letting the engine create a duplicate.
   */
  read(ctx: KindContext, target: ReadTarget): Promise<Observed | undefined>;
  /** Reads many resources by listing (plan and drift); optional. */
  readonly list?: ListReader;
  create(ctx: KindContext, name: string, spec: JsonObject): Promise<Observed>;
  update(ctx: KindContext, name: string, spec: JsonObject, current: Observed, changed: readonly JsonPath[]): Promise<Observed>;
  delete(ctx: KindContext, id: string, lastSpec: JsonObject): Promise<void>;
  /**
   * Follows a resource whose last write is still being carried out (`Observed.inProgress`) to its
   * end, as create and update follow their own writes: resolves with the resource as it ended,
   * throws when it ended failed (`Observed.failed`: at once). Without it apply does not wait.
   */
  awaitSettled?(ctx: KindContext, current: Observed): Promise<Observed>;
  /**
   * Create and update address the resource by an identifier moor derives (PUT or PATCH by name):
   * repeating one after a crash changes nothing, so apply need not wait for its intent to be
   * durable in state before sending. Leave unset where the service assigns the identifier.
   */
  readonly idempotentWrites?: boolean;
  /**
   * The spec field that names the resource at the service, defaulting to metadata.name when the
   * manifest leaves it out (a container group's `name`, an auth context's `id`). A replace creates
   * the new resource under it: plan shows it when it differs from the live one's (after a rename).
   */
  readonly nameField?: string;
  /** A replace loses data the user cannot get back (plan marks it destructive; refused when protected). */
  readonly replaceIsDestructive?: boolean;
  /**
   * Checks before anything is sent, over every planned create of this kind
   * (e.g. a location's quota). Returns error messages keyed by address.
   */
  preflight?(ctx: KindContext, creates: readonly { address: string; spec: JsonObject }[]): Promise<{ address: string; message: string }[]>;
  /**
   * For `moor import`: how the resource read by the id the user gave (`target.id`) differs from
   * the one the manifest describes (another name, resource group, subscription, workspace or
   * id), one short phrase each; empty when it is that resource. Without it the ids are compared.
   */
  identityMismatches?(target: { name: string; spec: JsonObject; id: string }, observed: Observed): string[];
  /**
   * Where the service assigns the identifier and names are not unique (a dataset's name in its
   * workspace): the live resources a create would stand beside, looked up by name. Asked only for a
   * create state has no record of, so a lost state does not make a second one silently.
   */
  namesakes?(ctx: KindContext, name: string, spec: JsonObject): Promise<Namesakes | undefined>;
}

/** Live resources of the name a create would use: what they are, for messages, and their ids (for moor import). */
export interface Namesakes {
  readonly what: string;
  readonly ids: readonly string[];
}

/** What state keeps of a job's run, updated after every step so a crash loses nothing. */
export interface JobRecord extends JsonObject {
  revision: string;
  /** started: sent, being followed; succeeded; failed. */
  status: 'started' | 'succeeded' | 'failed';
  // `outcome: 'unknown'` (with status failed): the answer was lost, so it may or may not have
  // happened; the run blocks its dependents until re-checked or resolved (`moor state resolve`).
}

export interface JobHandler {
  /** A run overwrites data (plan marks it destructive). */
  readonly destructive: boolean;
  revision(spec: JsonObject): string;
  /**
   * Runs the job, or resumes following the run in `record` when it is for the same revision
   * and still 'started'. Calls `checkpoint` after each step (operation sent, status read);
   * never sends the operation again once a record says it was sent.
   */
  run(ctx: KindContext, spec: JsonObject, record: JobRecord | undefined, checkpoint: (r: JobRecord) => Promise<void>): Promise<JobRecord>;
  /**
   * Asks the service about a run whose outcome is unknown (a read only, e.g. an operation's status
   * by its activity id). Returns the run to resume following (status started) when the service
   * knows it, or undefined when it cannot tell: then only the user can resolve it.
   */
  recheck?(ctx: KindContext, spec: JsonObject, record: JobRecord): Promise<JobRecord | undefined>;
  /** A run still marked started whose last request's answer was lost (a crash while sending): its outcome is unknown. */
  lostAnswer?(record: JobRecord): boolean;
  /**
   * What a run holds alone while it runs (e.g. the database environment it operates on, where the
   * service takes one operation at a time): runs of one apply sharing a key never overlap.
   */
  exclusive?(spec: JsonObject): readonly string[];
}

export interface CheckResult {
  readonly passed: boolean;
  /** One line: what was checked and what was found. */
  readonly message: string;
  readonly details?: JsonObject;
}

export interface CheckHandler {
  evaluate(ctx: KindContext, spec: JsonObject): Promise<CheckResult>;
}

interface KindBase {
  readonly kind: string;
  readonly description: string;
  /** JSON Schema (draft 2020-12 subset ajv understands) of `spec`. */
  readonly specSchema: JsonObject;
  /** Spec path patterns that hold secrets: shown as (sensitive), stored as salted hashes. */
  readonly sensitive: readonly string[];
  /**
   * What names the resource or run (subscription, group, name, workspace, id; a job's project,
   * environments and revision): kept in clear even when a `${env:}` or `${file:}` placeholder
   * supplies it — state records it anyway (in the id, in the runs), and read and delete need it.
   * Every other placeholder value is a secret (kept only as a hash, shown as (sensitive)).
   */
  readonly addressing?: readonly string[];
  /** Rules beyond JSON Schema (cross-references inside the spec). */
  checkSpec?(spec: JsonObject, report: Report): void;
  /** What a step of this kind usually takes, in seconds (provisioning, a database job): apply starts long chains first. */
  readonly typicalStepSeconds?: number;
}

/** Where `moor discover` looks, as its command line names it. */
export interface DiscoveryScope {
  /** --subscription: ARM's scope. */
  readonly subscriptionId?: string;
  /** --resource-group (none: every resource group of the subscription). */
  readonly resourceGroups: readonly string[];
  /** --workspace: the analytics workspaces. */
  readonly workspaces: readonly string[];
  /** --auth-contexts: the tenant's directory-wide resources. */
  readonly tenant: boolean;
}

/** One live resource found by `moor discover`. */
export interface Discovered {
  readonly observed: Observed;
  /** The name the service knows it by: its address is made from it. */
  readonly name: string;
  /** Where it lives (a resource group, a workspace, the tenant): the manifests of one home share a file named after it. */
  readonly home: string;
  /** Said when two of one name need telling apart: what this one differs by (its resource group, its id). */
  readonly distinguishedBy: string;
  /** What tells it apart in an address then (the resource group's name, the start of its id). */
  readonly suffix: string;
}

/** The spec a person would write for a live resource, before discover drops service-filled fields and defaults. */
export interface AdoptedSpec {
  readonly spec: JsonObject;
  /** Secrets the service hides: each gets a `${env:NAME}` at `path`; `words` make NAME readable. */
  readonly secrets: readonly { readonly path: JsonPath; readonly words: readonly string[] }[];
  /** What the manifest cannot say, and why (never dropped silently). */
  readonly unwritten: readonly { readonly path: JsonPath; readonly reason: string }[];
}

/** How `moor discover` finds a kind's live resources and writes them as manifests. */
export interface Adoption {
  /**
   * Every live resource of the kind in the scope (every page); none when the scope names nothing of
   * its kind. `listed` hears progress; `passedOver` hears what the listing holds that moor does not
   * manage (another kind of dataset), with the reason, so nothing is dropped silently.
   */
  list(
    ctx: KindContext,
    scope: DiscoveryScope,
    listed: (count: number, where: string) => void,
    passedOver: (what: string, reason: string) => void,
  ): Promise<Discovered[]>;
  /** The live resource as a spec a person would write: hidden secrets named, what cannot be written said. */
  toSpec(found: Discovered): AdoptedSpec;
}

/** Lives in a service: read, created, updated, deleted; compared by its diff rules. */
export interface ResourceKind extends KindBase {
  readonly category: 'resource';
  readonly diff: DiffRules;
  readonly resource: ResourceHandler;
  /**
   * Output path patterns that describe a moment rather than the resource (instance views, event
   * lists, the service's audit timestamps): state does not keep them, so `${ref:}` cannot read them.
   */
  readonly transientOutputs?: readonly string[];
  /** For `moor discover`: listing the live resources of a scope and writing each as a manifest. */
  readonly adoption?: Adoption;
}

/** Runs once per revision. */
export interface JobKind extends KindBase {
  readonly category: 'job';
  readonly job: JobHandler;
}

/** Evaluated during plan; changes nothing. */
export interface CheckKind extends KindBase {
  readonly category: 'check';
  readonly check: CheckHandler;
}

/** One kind; `category` tells which handler it has, so the compiler proves each step has its handler. */
export type KindDefinition = ResourceKind | JobKind | CheckKind;

/**
 * A kind of document the manifests may hold that is no resource (a Policy): loaded and checked
 * against its schema, handed to whoever reads it (a Guard), never planned, applied or kept in state.
 */
export interface DocumentKind {
  readonly kind: string;
  readonly description: string;
  /** JSON Schema of `spec`. */
  readonly specSchema: JsonObject;
}
