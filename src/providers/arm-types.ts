// Bodies of the ARM operations moor uses (container groups, usage and name availability), as the service sends and takes them.

/** A container group as PUT and returned; moor passes the body through untouched. */
export interface ContainerGroupBody {
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly location?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly zones?: readonly string[];
  readonly identity?: Readonly<Record<string, unknown>>;
  readonly properties?: Readonly<Record<string, unknown>> & { readonly provisioningState?: string };
  readonly systemData?: Readonly<Record<string, unknown>>;
  readonly [extra: string]: unknown;
}

/** One entry of the usage list of a location. */
export interface Usage {
  readonly id?: string;
  /** `value` is the resource kind, e.g. 'ContainerGroups'. */
  readonly name: { readonly value: string; readonly localizedValue?: string };
  readonly currentValue: number;
  readonly limit: number;
  readonly unit?: string;
}

/** Answer of checkNameAvailability. */
export interface NameAvailability {
  readonly name?: string;
  readonly available: boolean;
  /** 'Invalid' or 'AlreadyExists'; absent when available. */
  readonly reason?: string;
  readonly message?: string;
}
