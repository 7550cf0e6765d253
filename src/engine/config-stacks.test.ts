// Stacks in moor.config.yaml: what a stack's run sees of the config, and what the config refuses.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig, requireStackChoice } from './config.js';
import { manifestPaths, withStackWorkspace } from './config-stacks.js';

const CONFIG = `
endpoints: {arm: https://arm.example.net, graph: https://graph.example.net}
credentials: {arm: {tokenEnv: ARM_TOKEN}}
parallelism: 4
stacks:
  dev:
    paths: [manifests/base, manifests/dev]
    vars: {imageTag: "1.27", replicas: 2, public: true}
  prod:
    paths: [manifests/base, manifests/prod]
    vars: {imageTag: "1.26"}
    state: postgres://moor@db.example.net/moor
    endpoints: {arm: https://arm-prod.example.net}
    credentials: {arm: {tokenEnv: ARM_PROD_TOKEN}}
    parallelism: 16
`;

function configDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'moor-stacks-'));
  writeFileSync(join(dir, 'moor.config.yaml'), text);
  return dir;
}

describe('stacks in the config', () => {
  test('a stack takes its endpoints and credentials per service over the top-level ones, and its own parallelism and state', () => {
    const config = loadConfig(undefined, configDir(CONFIG), {}, { name: 'prod', source: 'flag' });
    expect(config.endpoints).toEqual({ arm: 'https://arm-prod.example.net', graph: 'https://graph.example.net' });
    expect(config.credentials).toEqual({ arm: { tokenEnv: 'ARM_PROD_TOKEN' } });
    expect(config.parallelism).toBe(16);
    expect(config.state).toBe('postgres://moor@db.example.net/moor?workspace=prod');
    expect(config.stack).toEqual({ name: 'prod', paths: ['manifests/base', 'manifests/prod'], vars: { imageTag: '1.26' } });
    expect(config.stacks).toEqual(['dev', 'prod']);
  });

  test('a stack without state of its own gets its own file; the top-level settings stay where it sets none', () => {
    const config = loadConfig(undefined, configDir(CONFIG), {}, { name: 'dev', source: 'flag' });
    expect(config.state).toBe('.moor/stacks/dev/state.json');
    expect(config.parallelism).toBe(4);
    expect(config.stack?.vars).toEqual({ imageTag: '1.27', replicas: 2, public: true });
  });

  test('a PostgreSQL state shared at the top level keeps each stack in its own workspace', () => {
    const config = loadConfig(
      undefined,
      configDir('state: postgres://moor@db/moor?sslmode=disable\nstacks: {dev: {}, prod: {}}\n'),
      {},
      { name: 'dev', source: 'flag' },
    );
    expect(config.state).toBe('postgres://moor@db/moor?sslmode=disable&workspace=dev');
    expect(withStackWorkspace('postgres://db/moor?workspace=shared', 'dev')).toBe('postgres://db/moor?workspace=shared');
    expect(withStackWorkspace('state/dev.json', 'dev')).toBe('state/dev.json');
  });

  test('stack paths are relative to the config file and given relative to the working directory', () => {
    const dir = configDir('');
    writeFileSync(join(dir, 'moor.config.yaml'), 'stacks: {dev: {paths: [base, dev]}}\n');
    const config = loadConfig(join(dir, 'moor.config.yaml'), join(dir, '..'), {}, { name: 'dev', source: 'flag' });
    const name = dir.split('/').pop();
    expect(config.stack?.paths).toEqual([`${name}/base`, `${name}/dev`]);
  });

  test('MOOR_ENDPOINT still sets every service, also for a stack with endpoints of its own', () => {
    const config = loadConfig(undefined, configDir(CONFIG), { MOOR_ENDPOINT: 'http://127.0.0.1:9' }, { name: 'prod', source: 'flag' });
    expect(config.endpoints.arm).toBe('http://127.0.0.1:9');
  });

  test('without stacks in the config nothing changes, and no stack is asked for', () => {
    const config = loadConfig(undefined, configDir('parallelism: 3\n'), {});
    expect(config.stack).toBeUndefined();
    expect(config.stacks).toBeUndefined();
    expect(config.state).toBeUndefined();
    expect(() => requireStackChoice(config)).not.toThrow();
  });

  test('a config with stacks refuses a run that chose none, naming the stacks', () => {
    const config = loadConfig(undefined, configDir(CONFIG), {});
    expect(() => requireStackChoice(config)).toThrow('moor.config.yaml defines stacks (dev, prod): choose one with --stack NAME (or MOOR_STACK)');
  });

  test.each([
    ['an unknown stack names the stacks there are', CONFIG, 'qa', "--stack qa: no stack 'qa' in moor.config.yaml (its stacks: dev, prod)"],
    ['a stack asked of a config without stacks', 'parallelism: 2\n', 'dev', '--stack dev: moor.config.yaml defines no stacks'],
    ['an unknown key of a stack', 'stacks: {dev: {path: [a]}}\n', 'dev', "stacks.dev: unknown key 'path'"],
    ['a variable that is structure', 'stacks: {dev: {vars: {tags: {a: 1}}}}\n', 'dev', 'stacks.dev.vars.tags must be a string, number or boolean'],
    ['paths that are not a list', 'stacks: {dev: {paths: base}}\n', 'dev', 'stacks.dev.paths must be a list'],
    ['a bad endpoint of a stack not selected', 'stacks: {dev: {}, prod: {endpoints: {arm: 3}}}\n', 'dev', 'stacks.prod: endpoints.arm must be a URL string'],
    ['a stack name with a slash', 'stacks: {"a/b": {}}\n', 'a/b', 'a stack name is 1 to 63 letters'],
  ])('refused: %s', (_reason, text, stack, message) => {
    expect(() => loadConfig(undefined, configDir(text), {}, { name: stack, source: 'flag' })).toThrow(message);
  });

  test('a stack with paths takes no PATH on the command line; one without uses them', () => {
    expect(manifestPaths({ name: 'dev', paths: ['a', 'b'], vars: {} }, [])).toEqual(['a', 'b']);
    expect(() => manifestPaths({ name: 'dev', paths: ['a'], vars: {} }, ['c'])).toThrow(
      'stack dev takes its manifest paths from the config (a); give no PATH with --stack',
    );
    expect(manifestPaths({ name: 'dev', vars: {} }, ['c'])).toEqual(['c']);
    expect(manifestPaths(undefined, [])).toEqual(['.']);
  });
});
