import { Gauge, Histogram, type Registry } from 'prom-client';
import type { KeyStoreStatus } from '../keys/key-store-status.js';

/** From a software signature (~60 µs) to a network HSM's round trip under load. */
const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * `credservice_signing_duration_seconds{key_store,outcome}`: every signature the key store made or
 * refused, by where the key lives; `credservice_key_store_up{key_store}`: 1 while the configured
 * key store can sign (a PKCS#11 token that went away is 0 until it is reconnected).
 */
export function keyStoreMetrics(registry: Registry, keyStore: KeyStoreStatus): void {
  const signing = new Histogram({
    name: 'credservice_signing_duration_seconds',
    help: 'Time to make one ES256 signature, by key store; outcome=failed when the store refused',
    labelNames: ['key_store', 'outcome'],
    buckets: BUCKETS,
    registers: [registry],
  });
  keyStore.onSigned(({ keyStore: store, seconds, ok }) =>
    signing.observe({ key_store: store, outcome: ok ? 'signed' : 'failed' }, seconds),
  );
  new Gauge({
    name: 'credservice_key_store_up',
    help: 'Whether the configured key store can sign (1) or not (0)',
    labelNames: ['key_store'],
    registers: [registry],
    collect() {
      const { keyStore: store, up } = keyStore.health();
      this.set({ key_store: store }, up ? 1 : 0);
    },
  });
}
