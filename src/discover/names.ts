// Names discover makes: addresses from the services' names (clashes told apart the same way on
// every run), readable environment variable names for hidden secrets, and file names.

/** What a metadata.name may hold: letters, digits, `_`, `.`, `-` (1 to 128). */
export function nameOf(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '');
  return (cleaned === '' ? 'unnamed' : cleaned).slice(0, 128);
}

export interface Namable {
  readonly name: string;
  readonly suffix: string;
}

/**
 * metadata.name for each resource of one kind, in order. A name that two live resources share, or
 * that an existing manifest of the kind already has, takes the resource's suffix (its resource
 * group, the start of its id): decided by the live names alone, so every run decides the same.
 */
export function addressNames(found: readonly Namable[], taken: ReadonlySet<string>): string[] {
  const count = new Map<string, number>();
  for (const f of found) count.set(nameOf(f.name), (count.get(nameOf(f.name)) ?? 0) + 1);
  const used = new Set(taken);
  return found.map((f) => {
    const base = nameOf(f.name);
    let name = (count.get(base) ?? 0) > 1 || used.has(base) ? nameOf(`${base}-${f.suffix}`) : base;
    for (let n = 2; used.has(name); n++) name = nameOf(`${base}-${f.suffix}-${n}`);
    used.add(name);
    return name;
  });
}

/** An environment variable name from words: API_DB_PASSWORD from ['api', 'DB_PASSWORD']; unique among `used`. */
export function secretName(words: readonly string[], used: Set<string>): string {
  const parts = words
    .map((w) =>
      w
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_+|_+$/g, ''),
    )
    .filter((w) => w !== '');
  let base = parts.join('_') || 'SECRET';
  if (/^[0-9]/.test(base)) base = `S_${base}`;
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}

/** A file name for a home: its name made safe, `.yaml`; `.2.yaml`, `.3.yaml`… when `exists` says it is there. */
export function fileNameFor(home: string, exists: (name: string) => boolean): string {
  const stem =
    home
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '') || 'resources';
  let name = `${stem}.yaml`;
  for (let n = 2; exists(name); n++) name = `${stem}.${n}.yaml`;
  return name;
}
