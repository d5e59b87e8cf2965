import { performance } from 'node:perf_hooks';
import type { KeyStoreKind } from './key-vault.js';

/** One signature made (or refused): which store, how long it took, whether it worked. */
export type SigningListener = (event: { keyStore: KeyStoreKind; seconds: number; ok: boolean }) => void;

/** What readiness and the metrics read of the key store: where keys are made, whether it answers. */
export interface KeyStoreStatus {
  health(): { keyStore: KeyStoreKind; up: boolean };
  onSigned(listener: SigningListener): void;
}

/** The signing listeners of a key store, and the timing of each signature for them. */
export class SigningObservers {
  readonly #listeners: SigningListener[] = [];

  add(listener: SigningListener): void {
    this.#listeners.push(listener);
  }

  async time<T>(keyStore: KeyStoreKind, signing: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let ok = false;
    try {
      const result = await signing();
      ok = true;
      return result;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.#listeners) listener({ keyStore, seconds, ok });
    }
  }
}
