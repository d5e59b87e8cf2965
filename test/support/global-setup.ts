import net from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * Finds the PostgreSQL and Redis the tests run against: DATABASE_URL / REDIS_URL when set, else the
 * servers on their default local ports when they answer, else testcontainers when a container runtime
 * exists. Otherwise the run fails, saying how to provide them. Nothing is skipped.
 */
const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

export default async function setup(project: TestProject) {
  const stops: (() => Promise<unknown>)[] = [];
  let databaseUrl = process.env.DATABASE_URL;
  let redisUrl = process.env.REDIS_URL;
  if (!databaseUrl && (await reachable(5432))) databaseUrl = 'postgresql://postgres@127.0.0.1:5432/postgres';
  if (!redisUrl && (await reachable(6379))) redisUrl = 'redis://127.0.0.1:6379';
  if (!databaseUrl || !redisUrl) {
    const tc = await import('testcontainers').catch(() => undefined);
    try {
      if (!tc) throw new Error('testcontainers is not installed');
      if (!databaseUrl) {
        const pg = await new tc.GenericContainer('postgres:17')
          .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
          .withExposedPorts(5432)
          .withWaitStrategy(tc.Wait.forLogMessage(/ready to accept connections/, 2))
          .start();
        stops.push(() => pg.stop());
        databaseUrl = `postgresql://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`;
      }
      if (!redisUrl) {
        const redis = await new tc.GenericContainer('redis:7').withExposedPorts(6379).start();
        stops.push(() => redis.stop());
        redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
      }
    } catch (e) {
      throw new Error(
        `The tests need PostgreSQL and Redis. Set DATABASE_URL and REDIS_URL, or run them on 127.0.0.1:5432 ` +
          `and 127.0.0.1:6379, or provide a container runtime for testcontainers (${(e as Error).message}).`,
      );
    }
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  return async () => {
    for (const stop of stops) await stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}
