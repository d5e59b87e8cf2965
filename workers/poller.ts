/**
 * Runs `pass` every `intervalMs` and whenever kicked, never two passes at once; a kick during a pass
 * schedules one more pass right after it, so no recorded effect waits for the next interval.
 */
export class Poller {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  start(): void {
    this.#stopped = false;
    this.kick();
  }

  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.pass()
      .catch(this.onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#stopped) return;
        if (this.#again) {
          this.#again = false;
          this.kick();
        } else {
          this.#timer = setTimeout(() => this.kick(), this.intervalMs);
        }
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}
