import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

/**
 * LOG_FORMAT: JSON lines by default, pino-pretty's human lines with `pretty`; both redact secrets.
 * The logger writes to the process's stdout, so each case runs in a child process of its own.
 */
const logger = path.resolve(import.meta.dirname, '../../server/logger.ts');

async function logLine(format: string): Promise<string> {
  const script = `
    import { createLogger } from ${JSON.stringify(logger)};
    const format = process.env.FORMAT === 'default' ? undefined : process.env.FORMAT;
    createLogger('info', format).info({ tenant: 'acme', token: 'sekrit-token' }, 'tenant created');`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { env: { ...process.env, FORMAT: format } },
  );
  return stdout;
}

describe('LOG_FORMAT', () => {
  it('defaults to one JSON object a line', async () => {
    const out = await logLine('default');
    expect(JSON.parse(out)).toMatchObject({ msg: 'tenant created', tenant: 'acme', token: '[redacted]' });
    expect(loadConfig({}).LOG_FORMAT).toBe('json');
  });

  it('pretty prints lines that are not JSON, with level, message and fields, secrets redacted', async () => {
    const out = await logLine('pretty');
    expect(() => JSON.parse(out)).toThrow();
    expect(out).toMatch(/INFO.*tenant created/);
    expect(out).toMatch(/tenant: "acme"/);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain('sekrit-token');
  });

  it('refuses another format at start, naming the variable', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
  });
});
