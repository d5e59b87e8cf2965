/**
 * Moves outbox messages to whatever runs jobs: BullMQ when REDIS_URL is set, else this process.
 * `kick` asks for a relay pass now (after a commit that recorded effects) instead of at the next poll.
 */
export interface JobDispatcher {
  readonly kind: 'bullmq' | 'in-process';
  start(): Promise<void>;
  kick(): void;
  /** Stops taking new work and waits for running jobs to finish. */
  stop(): Promise<void>;
}
