import fs from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * Part of the probe: a V8 CPU profile of one measured window only (not of start-up or of the
 * preparation before the clock starts), written where the bench asks. Started and stopped over the
 * IPC channel: `{ profile: 'start' }`, then `{ profile: 'stop', file }`, answered `{ profiled: file }`.
 */
let session: Session | undefined;

async function start() {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
}

async function stop(file: string) {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  await fs.writeFile(file, JSON.stringify(profile));
}

process.on('message', (message: unknown) => {
  if (typeof message !== 'object' || message === null || !('profile' in message)) return;
  const m = message as { profile: 'start' | 'stop'; file?: string };
  const done = m.profile === 'start' ? start() : stop(m.file ?? 'window.cpuprofile');
  done.then(
    () => process.send?.({ profiled: m.profile === 'start' ? 'started' : m.file }),
    (err: Error) => process.send?.({ profiled: `failed: ${err.message}` }),
  );
});
