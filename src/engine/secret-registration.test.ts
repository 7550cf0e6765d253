// The values of a kind's sensitive fields become masked secrets; other values do not.
import { describe, expect, it } from 'vitest';
import { masker } from './masker.js';
import { registerResolvedSecrets } from './secret-registration.js';

describe('registerResolvedSecrets', () => {
  it('registers secureValue and registry passwords of a container group, and nothing else', () => {
    registerResolvedSecrets('ContainerGroup', {
      location: 'westeurope-region',
      properties: {
        containers: [{ name: 'app', properties: { environmentVariables: [{ name: 'PW', secureValue: 'env-secret-4711' }, { name: 'MODE', value: 'production-mode' }] } }],
        imageRegistryCredentials: [{ server: 'r.example.net', username: 'robot-user', password: 'registry-pass-99' }],
      },
    });
    expect(masker.mask('env-secret-4711 registry-pass-99 production-mode westeurope-region robot-user'))
      .toBe('*** *** production-mode westeurope-region robot-user');
  });

  it('ignores a kind it does not know', () => {
    registerResolvedSecrets('Nothing', { secureValue: 'unknown-kind-secret' });
    expect(masker.mask('unknown-kind-secret')).toBe('unknown-kind-secret');
  });
});
