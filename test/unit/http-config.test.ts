import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

const run = promisify(execFile);

describe('HTTP settings', () => {
  it('refuses an ADMIN_TOKEN shorter than 32 characters, and takes one of 32', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'x' })).toThrow(/ADMIN_TOKEN: must be at least 32 characters/);
    expect(() => loadConfig({ ADMIN_TOKEN: 'a'.repeat(31) })).toThrow(/ADMIN_TOKEN/);
    expect(loadConfig({ ADMIN_TOKEN: 'a'.repeat(32) }).ADMIN_TOKEN).toHaveLength(32);
    expect(loadConfig({}).ADMIN_TOKEN).toBeUndefined();
  });

  it('does not start with a short ADMIN_TOKEN, and says why in one line', async () => {
    const started = run(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, ADMIN_TOKEN: 'change-me', DATABASE_URL: 'postgresql://unused', PORT: '0' },
      timeout: 30_000,
    });
    const failure = (await started.catch((e: { code: number; stderr: string }) => e)) as {
      code: number;
      stderr: string;
    };
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toMatch(
      /^credservice: invalid configuration: ADMIN_TOKEN: must be at least 32/,
    );
    expect(failure.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('trusts no proxy by default, and a hop count or addresses and CIDR ranges when told', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'loopback',
      '::1',
    ]);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/8', 'fe80::/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('allows plain HTTP only in local development or when told', () => {
    expect(loadConfig({}).insecureHttpAllowed).toBe(true); // http://localhost:3000
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).insecureHttpAllowed).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://credentials.example' }).insecureHttpAllowed).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).insecureHttpAllowed).toBe(false);
    const lan = loadConfig({ PUBLIC_URL: 'http://192.168.1.20:3000', ALLOW_INSECURE_HTTP: 'true' });
    expect(lan.insecureHttpAllowed).toBe(true);
  });

  it('bounds slow and numerous clients by default', () => {
    const c = loadConfig({});
    expect([c.HEADERS_TIMEOUT_MS, c.REQUEST_TIMEOUT_MS, c.MAX_CONNECTIONS]).toEqual([10_000, 30_000, 1_000]);
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS/);
  });
});
