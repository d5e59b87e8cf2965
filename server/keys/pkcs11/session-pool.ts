import type { Handle } from 'pkcs11js';

interface Waiter {
  resolve: (session: Handle) => void;
  reject: (err: Error) => void;
}

/**
 * The token's sessions, one per operation in flight: a session runs one C_SignInit/C_Sign at a
 * time, so signatures wait here for a free one rather than fail with CKR_OPERATION_ACTIVE. Sized
 * to libuv's thread pool, which runs the asynchronous C_Sign calls. `drain` rejects whoever waits
 * (the token went away) and the pool is filled again after a reconnect.
 */
export class SessionPool {
  #free: Handle[] = [];
  readonly #waiters: Waiter[] = [];
  #busy = 0;

  fill(sessions: Handle[]): void {
    this.#free = [...sessions];
  }

  get busy(): number {
    return this.#busy;
  }

  acquire(): Promise<Handle> {
    const session = this.#free.pop();
    if (session) {
      this.#busy++;
      return Promise.resolve(session);
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  release(session: Handle): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve(session);
    else {
      this.#busy--;
      this.#free.push(session);
    }
  }

  /** Forgets a session that belongs to a finalized module; the busy count drops all the same. */
  discard(): void {
    this.#busy--;
  }

  /** Empties the pool and rejects every waiter with `err`. */
  drain(err: Error): void {
    this.#free = [];
    for (const waiter of this.#waiters.splice(0)) waiter.reject(err);
  }
}
