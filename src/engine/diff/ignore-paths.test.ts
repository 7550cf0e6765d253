import { describe, expect, it } from 'vitest';
import type { DiffRules } from '../../core/kind.js';
import { getAt, type JsonObject } from '../../core/json.js';
import { compileRules } from './compiled-rules.js';
import { diffResource } from './three-way.js';
import { isUnderPlace, keepIgnoredLive, parseIgnorePath, type IgnorePath } from './ignore-paths.js';

const RULES: DiffRules = {
  serverPopulated: ['id', 'properties/containers/*/properties/instanceView'],
  writeOnly: ['properties/containers/*/properties/environmentVariables/*/secureValue'],
  immutable: [],
  arrayKeys: { 'properties/containers': 'name', 'properties/containers/*/properties/environmentVariables': 'name' },
  writes: { summary: 'PUT', whole: ['tags', 'properties'] },
};
const rules = compileRules(RULES);
const paths = (...texts: string[]) => texts.map((t) => parseIgnorePath(t) as IgnorePath);
const group = (env: JsonObject[], tags?: JsonObject): JsonObject => ({
  ...(tags ? { tags } : {}),
  properties: { containers: [{ name: 'web', properties: { image: 'nginx', environmentVariables: env } }] },
});

describe('ignore paths: the live value wins where another system owns a field', () => {
  it('parses named selectors and wildcards, and says what is wrong with a bad path', () => {
    expect(parseIgnorePath('/properties/containers[name=web]/properties/image')).toEqual({
      text: '/properties/containers[name=web]/properties/image',
      segments: [
        { type: 'key', key: 'properties' },
        { type: 'key', key: 'containers' },
        { type: 'named', key: 'name', value: 'web' },
        { type: 'key', key: 'properties' },
        { type: 'key', key: 'image' },
      ],
    });
    expect(parseIgnorePath('/tags/*')).toEqual({ text: '/tags/*', segments: [{ type: 'key', key: 'tags' }, { type: 'any' }] });
    expect(parseIgnorePath('tags')).toMatch(/starting with "\/"/);
    expect(parseIgnorePath('/a[name]')).toMatch(/not \[key=value\]/);
  });

  it('a named element takes its live value; the diff of the rest is unchanged and the ignored field is counted once', () => {
    const desired = group([
      { name: 'MODE', value: 'prod' },
      { name: 'REPLICAS', value: '2' },
    ]);
    const live = group([
      { name: 'MODE', value: 'dev' },
      { name: 'REPLICAS', value: '9' },
    ]);
    const kept = keepIgnoredLive(desired, live, paths('/properties/containers[name=web]/properties/environmentVariables[name=REPLICAS]'), rules);
    expect(kept.places).toEqual(['/properties/containers[name=web]/properties/environmentVariables[name=REPLICAS]']);
    const fields = diffResource({ desired: kept.spec, last: desired, live, rules: RULES, sensitive: [] });
    expect(fields.map((f) => f.path)).toEqual(['/properties/containers[name=web]/properties/environmentVariables[name=MODE]/value']);
    const before = diffResource({ desired, last: desired, live, rules: RULES, sensitive: [] });
    expect(before.filter((f) => isUnderPlace(f.path, kept.places))).toHaveLength(1);
    // The input is never changed.
    expect(getAt(desired, ['properties', 'containers', 0, 'properties', 'environmentVariables', 1])).toEqual({ name: 'REPLICAS', value: '2' });
  });

  it("an element added live is carried by a whole-body write, one removed live stays removed, secrets stay the manifest's", () => {
    const ignore = paths(
      '/properties/containers[name=web]/properties/environmentVariables[name=SCALE]',
      '/properties/containers[name=web]/properties/environmentVariables[name=OLD]',
      '/properties/containers[name=web]/properties/environmentVariables[name=KEY]',
    );
    const desired = group([
      { name: 'OLD', value: 'x' },
      { name: 'KEY', value: 'a', secureValue: 's3cret' },
    ]);
    const live = group([
      { name: 'KEY', value: 'b' },
      { name: 'SCALE', value: '3' },
    ]);
    const kept = keepIgnoredLive(desired, live, ignore, rules);
    expect(kept.spec.properties).toEqual({
      containers: [
        {
          name: 'web',
          properties: {
            image: 'nginx',
            environmentVariables: [
              { name: 'KEY', value: 'b', secureValue: 's3cret' },
              { name: 'SCALE', value: '3' },
            ],
          },
        },
      ],
    });
    expect(diffResource({ desired: kept.spec, last: kept.spec, live, rules: RULES, sensitive: [] }).filter((f) => !f.path.endsWith('secureValue'))).toEqual([]);
  });

  it('a wildcard keeps every live tag, also where the manifest sets none', () => {
    const kept = keepIgnoredLive(group([]), group([], { cost: 'a', owner: 'b' }), paths('/tags/*'), rules);
    expect(kept.spec.tags).toEqual({ cost: 'a', owner: 'b' });
    expect(kept.places).toEqual(['/tags/cost', '/tags/owner']);
  });

  it('server-filled parts of a taken element are left out', () => {
    const live = { properties: { containers: [{ name: 'web', properties: { image: 'x', instanceView: { state: 'Running' } } }] } };
    const kept = keepIgnoredLive({ properties: { containers: [] } }, live, paths('/properties/containers[name=web]'), rules);
    expect(kept.spec).toEqual({ properties: { containers: [{ name: 'web', properties: { image: 'x' } }] } });
  });
});
