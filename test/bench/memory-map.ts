import { readFileSync } from 'node:fs';

/**
 * Where a process's resident memory lies, from /proc/<pid>/smaps (Linux only), in MB by kind of
 * mapping, so that a rise in RSS can be put on V8 or on malloc. The kinds follow from what V8 and
 * glibc do on x86-64 Linux:
 *   - V8 maps its heap as anonymous pages of 256 KB each. It keeps pages that a full collection
 *     freed in a pool for reuse, still resident, so these can hold far more than `heapTotal`;
 *   - V8's code range is one large executable anonymous reservation;
 *   - glibc's main arena is `[heap]` (brk), where the main thread's mallocs (Buffers' memory, OpenSSL,
 *     libuv) go; every further arena is an anonymous mapping aligned to 64 MB;
 *   - anything else anonymous: malloc's own mmaps of large chunks, V8's large objects, thread stacks.
 */
export interface MemoryMap {
  rss_mb: number;
  by_kind_mb: Record<string, number>;
}

const V8_PAGE = 256 * 1024;
const GLIBC_ARENA_ALIGNMENT = 64 * 2 ** 20;
const mb = (kb: number) => Math.round(kb / 1024);

export function memoryMap(pid: number): MemoryMap | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined; // not Linux, or the process is gone
  }
  const kbByKind: Record<string, number> = {};
  let totalKb = 0;
  let kind = '';
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const start = Number.parseInt(header[1] as string, 16);
      const size = Number.parseInt(header[2] as string, 16) - start;
      kind = kindOf((header[4] as string).trim(), start, size, header[3] as string);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    totalKb += Number(rss[1]);
    kbByKind[kind] = (kbByKind[kind] ?? 0) + Number(rss[1]);
  }
  const byKind = Object.entries(kbByKind)
    .filter(([, kb]) => mb(kb) > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, kb]) => [k, mb(kb)]);
  return { rss_mb: mb(totalKb), by_kind_mb: Object.fromEntries(byKind) };
}

function kindOf(name: string, start: number, size: number, perms: string): string {
  if (name === '[heap]') return 'glibc main arena ([heap])';
  if (name.startsWith('[')) return name;
  if (name === '') {
    if (perms.includes('x')) return 'V8 code range';
    if (start % GLIBC_ARENA_ALIGNMENT === 0 && perms.startsWith('rw')) return 'glibc other arenas';
    // Neighbouring pages with the same permissions show as one mapping: a multiple, aligned alike.
    if (size % V8_PAGE === 0 && start % V8_PAGE === 0) return 'V8 heap pages (256 KB)';
    return 'other anonymous (large mallocs, large objects, stacks)';
  }
  if (/\/node$/.test(name)) return 'node binary';
  if (/\.so[.\d]*$/.test(name) || /\.node$/.test(name)) return 'shared libraries and addons';
  return 'other files';
}
