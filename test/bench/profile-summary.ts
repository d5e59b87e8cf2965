import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `node --import tsx test/bench/profile-summary.ts <file.cpuprofile|dir>`: where a V8 CPU profile of
 * the service (`npm run bench -- --profile`) spends its busy time, by self time: the top functions,
 * and shares by component (ORM and driver, crypto, HTTP framework and validation, logging, …).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Component of a source URL; the first matching rule wins. */
const COMPONENTS: [string, RegExp][] = [
  ['mikro-orm', /@mikro-orm\//],
  ['kysely', /\/kysely\//],
  ['pg driver', /\/(pg|pg-protocol|pg-pool|pg-types|pg-cursor|postgres-[a-z]+)\//],
  ['crypto (jose, @sd-jwt, node:crypto)', /\/jose\/|@sd-jwt\/|@peculiar|node:internal\/crypto|node:crypto/],
  [
    'express + body parsing',
    /\/(express|body-parser|router|raw-body|qs|iconv-lite|type-is|send|finalhandler|on-finished|content-type|accepts|negotiator|mime-types)\//,
  ],
  ['ts-rest', /@ts-rest\//],
  ['zod', /\/zod\//],
  ['ajv', /\/ajv(-formats)?\//],
  ['helmet', /\/helmet\//],
  ['logging (pino)', /\/(pino|pino-http|pino-std-serializers|sonic-boom|thread-stream)\//],
  ['bullmq + ioredis', /\/(bullmq|ioredis|msgpackr|cluster-key-slot|redis-errors|redis-parser)\//],
  ['other dependencies', /node_modules\//],
  ['service code', /\/(server|workers|contract)\//],
  ['node core (http, streams, timers)', /^node:/],
];

/** Native calls that hand bytes to a socket: a syscall, and on a busy machine a point of preemption. */
const SOCKET_WRITES = new Set([
  'writeBuffer',
  'writev',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
]);

/**
 * Component of a sampled frame. A native frame (no URL) counts for the JavaScript that called it,
 * so a signature made in C++ is crypto's; socket writes and the VM's own states stay apart.
 */
function componentOf(id: number, nodes: Map<number, ProfileNode>, parent: Map<number, number>): string {
  const frame = (nodes.get(id) as ProfileNode).callFrame;
  if (!frame.url) {
    if (frame.functionName.startsWith('(')) return frame.functionName;
    if (SOCKET_WRITES.has(frame.functionName)) return 'socket writes (syscall, incl. preemption)';
    const up = parent.get(id);
    return up === undefined ? '(native)' : componentOf(up, nodes, parent);
  }
  return COMPONENTS.find(([, re]) => re.test(frame.url))?.[0] ?? 'other';
}

export function summarize(profile: CpuProfile, top = 25) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byComponent = new Map<string, number>();
  let busy = 0;
  // The profiler's own start and stop (window-profiler.ts, node:inspector) is not the service's work.
  const profilerOwn = new Map<number, boolean>();
  const isProfilerOwn = (id: number): boolean => {
    const known = profilerOwn.get(id);
    if (known !== undefined) return known;
    const url = (nodes.get(id) as ProfileNode).callFrame.url;
    const up = parent.get(id);
    const own = /node:inspector|window-profiler/.test(url) || (up !== undefined && isProfilerOwn(up));
    profilerOwn.set(id, own);
    return own;
  };
  for (const [id, us] of selfUs) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    if (frame.functionName === '(idle)' || isProfilerOwn(id)) continue;
    busy += us;
    const where = frame.url
      ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|workers|contract)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const component = componentOf(id, nodes, parent);
    byComponent.set(component, (byComponent.get(component) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    busy_ms: Math.round(busy / 1000),
    by_component: sorted(byComponent).map(([name, us]) => ({
      name,
      share: share(us),
      ms: Math.round(us / 1000),
    })),
    top_self_time: sorted(byFunction)
      .slice(0, top)
      .map(([name, us]) => ({ name, share: share(us), ms: Math.round(us / 1000) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = process.argv[2] ?? path.join(os.tmpdir(), 'credservice-bench-profiles');
  const files = fs.statSync(target).isDirectory()
    ? fs
        .readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(target, f))
    : [target];
  for (const file of files) {
    console.log(JSON.stringify({ file, ...summarize(JSON.parse(fs.readFileSync(file, 'utf8'))) }, null, 2));
  }
}
