import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { createSoftHsmToken, softHsmAvailable } from '../support/softhsm-token.js';
import { expectStatus, type Figure, measure, startBenchService } from './harness.js';
import { credentialEndpointAlone, SD_JWT_CREDENTIAL_ENDPOINT } from './issuance.bench.js';
import { createBenchTenants } from './scenario.js';

const CONCURRENCY = 8;
const METRICS_TOKEN = 'bench-metrics-token-of-32-characters!';

interface KeyStoreRow extends Figure {
  key_store: 'local' | 'pkcs11';
  /**
   * Mean time of one signature inside the service during the figure (credservice_signing_duration_seconds):
   * with PKCS#11 it includes the wait for a free session.
   */
  signing_mean_ms: number | null;
}

/** The signing histogram's sum (seconds) and count for one key store, from the service's /metrics. */
async function signingTotals(baseUrl: string, store: string): Promise<{ sum: number; count: number }> {
  const text = await (
    await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const value = (series: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${series}{key_store="${store}",outcome="signed"}`))
        ?.split(' ')[1],
    );
  return {
    sum: value('credservice_signing_duration_seconds_sum') || 0,
    count: value('credservice_signing_duration_seconds_count') || 0,
  };
}

/**
 * `npm run bench -- key-store`: the credential endpoint (and the nonce endpoint, one signature and
 * nothing else) with software keys and with every key in a SoftHSM token, one after the other in
 * the same run, so the cost of signing through PKCS#11 shows beside the software figure.
 */
export async function keyStoreBench(o: { quick: boolean }) {
  if (!softHsmAvailable()) return { skipped: 'SoftHSM2 is not installed (apt-get install softhsm2)' };
  const smtp = await startSmtpCatcher();
  const token = await createSoftHsmToken('bench');
  const rows: KeyStoreRow[] = [];
  try {
    for (const store of ['local', 'pkcs11'] as const) {
      const service = await startBenchService({
        env: { SMTP_URL: smtp.url, METRICS_TOKEN, ...(store === 'pkcs11' ? token.env : {}) },
      });
      try {
        const pass = `ks-${store}-${Date.now()}`;
        const tenants = await createBenchTenants(service, 1, pass);
        const scenario = credentialEndpointAlone(SD_JWT_CREDENTIAL_ENDPOINT, 'issue');
        const total = o.quick ? 100 : scenario.operations;
        const op = await scenario.prepare({ service, smtp, tenants, pass }, total);
        const nonces = o.quick ? 250 : 1000;
        const nonce = async () =>
          expectStatus(
            await fetch(`${service.issuerUrl}/oid4vci/v1/nonce`, { method: 'POST' }),
            200,
            'nonce',
          );
        await measure('warm-up', 50, CONCURRENCY, nonce);
        const figures: [string, number, (i: number) => Promise<unknown>][] = [
          [`${SD_JWT_CREDENTIAL_ENDPOINT} [KEY_STORE=${store}]`, total, op],
          [`nonce endpoint (one ES256 signature) [KEY_STORE=${store}]`, nonces, nonce],
        ];
        for (const [name, count, run] of figures) {
          const before = await signingTotals(service.baseUrl, store);
          const figure = await measure(name, count, CONCURRENCY, run);
          const after = await signingTotals(service.baseUrl, store);
          const signed = after.count - before.count;
          const signing_mean_ms = signed ? +(((after.sum - before.sum) / signed) * 1000).toFixed(3) : null;
          const r: KeyStoreRow = { ...figure, key_store: store, signing_mean_ms };
          rows.push(r);
          process.stderr.write(
            `${String(r.per_second).padStart(5)}/s p50 ${r.p50_ms} p99 ${r.p99_ms} ms, signing mean ${r.signing_mean_ms} ms | ${r.name}\n`,
          );
        }
      } finally {
        await service.stop();
      }
    }
    return { concurrency: CONCURRENCY, figures: rows };
  } finally {
    await smtp.close();
    await token.remove();
  }
}
