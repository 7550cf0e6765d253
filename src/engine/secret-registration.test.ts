// The values at a kind's sensitive paths become masked secrets; other values do not.
import { describe, expect, it } from 'vitest';
import { Masker } from '../core/masker.js';
import { registerResolvedSecrets } from './secret-registration.js';

const masker = new Masker();
const SENSITIVE = ['properties/containers/*/properties/environmentVariables/*/secureValue', 'properties/imageRegistryCredentials/*/password'];

describe('registerResolvedSecrets', () => {
  it('registers the values at sensitive paths, and nothing else', () => {
    registerResolvedSecrets(masker, SENSITIVE, {
      location: 'westeurope-region',
      properties: {
        containers: [
          {
            name: 'app',
            properties: {
              environmentVariables: [
                { name: 'PW', secureValue: 'env-secret-4711' },
                { name: 'MODE', value: 'production-mode' },
              ],
            },
          },
        ],
        imageRegistryCredentials: [{ server: 'r.example.net', username: 'robot-user', password: 'registry-pass-99' }],
      },
    });
    expect(masker.mask('env-secret-4711 registry-pass-99 production-mode westeurope-region robot-user')).toBe(
      '*** *** production-mode westeurope-region robot-user',
    );
  });

  it('registers nothing without sensitive paths', () => {
    registerResolvedSecrets(masker, [], { secureValue: 'no-pattern-secret' });
    expect(masker.mask('no-pattern-secret')).toBe('no-pattern-secret');
  });
});
