import { ConfigError } from '../config/env';
import {
  GATEWAY_ROLE,
  gatewayPasswordFor,
  gatewayUrlFor,
  runtimePasswordFor,
  runtimeUrlFor,
  RUNTIME_ROLE,
} from '../db/connection';
import { testConfig } from './support/worker';

/** The runtime role's password is never a fixed default (issue 8, identity leftovers). */
describe('countersign_runtime password', () => {
  const owner = (pw: string, host = '127.0.0.1:55432') => `postgres://postgres:${pw}@${host}/cs`;

  it('is derived from the owner password: stable per cluster, different across clusters', () => {
    const a = runtimePasswordFor({}, owner('s3cret-one'));
    expect(runtimePasswordFor({}, owner('s3cret-one'))).toBe(a);
    expect(runtimePasswordFor({}, `postgres://postgres:s3cret-one@127.0.0.1:55432/other`)).toBe(a);
    expect(runtimePasswordFor({}, owner('s3cret-two'))).not.toBe(a);
    expect(runtimePasswordFor({}, owner('s3cret-one', '127.0.0.1:55433'))).not.toBe(a);
    expect(a).not.toContain('s3cret');
    expect(a).not.toBe('countersign-runtime-local');
    expect(a.length).toBeGreaterThanOrEqual(32);
  });

  it('DATABASE_RUNTIME_PASSWORD wins; an owner URL without a password needs it', () => {
    expect(runtimePasswordFor({ DATABASE_RUNTIME_PASSWORD: 'chosen-password' }, owner('x'))).toBe(
      'chosen-password',
    );
    expect(() => runtimePasswordFor({}, 'postgres://postgres@127.0.0.1:5432/cs')).toThrow(
      ConfigError,
    );
    const url = new URL(runtimeUrlFor(testConfig(), owner('s3cret-one')));
    expect(url.username).toBe(RUNTIME_ROLE);
    expect(url.password).toBe(runtimePasswordFor({}, owner('s3cret-one')));
  });
});

/** The gateway worker's own role (migration 0034): derived the same way, never the runtime's. */
describe('countersign_gateway password', () => {
  const owner = (pw: string) => `postgres://postgres:${pw}@127.0.0.1:55432/cs`;

  it('is derived per cluster and differs from the runtime role’s', () => {
    const g = gatewayPasswordFor({}, owner('s3cret-one'));
    expect(gatewayPasswordFor({}, owner('s3cret-one'))).toBe(g);
    expect(gatewayPasswordFor({}, owner('s3cret-two'))).not.toBe(g);
    expect(g).not.toBe(runtimePasswordFor({}, owner('s3cret-one')));
    expect(g.length).toBeGreaterThanOrEqual(32);
    const url = new URL(gatewayUrlFor(testConfig(), owner('s3cret-one')) as string);
    expect(url.username).toBe(GATEWAY_ROLE);
    expect(url.password).toBe(g);
  });

  it('cannot be derived from the runtime role’s URL; DATABASE_GATEWAY_URL wins', () => {
    const runtimeOnly = runtimeUrlFor(testConfig(), owner('s3cret-one'));
    expect(gatewayUrlFor(testConfig(), runtimeOnly)).toBeUndefined();
    const given = 'postgres://countersign_gateway:chosen-password@db.internal:5432/cs';
    expect(gatewayUrlFor(testConfig(undefined, { DATABASE_GATEWAY_URL: given }), runtimeOnly)).toBe(
      given,
    );
  });
});
