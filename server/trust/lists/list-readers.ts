import type { ListReaders } from '../fetch-trust-list.js';
import { readLote } from './lote/index.js';
import { readTrustedList } from './trusted-list/index.js';

/** The readers trust sources are read with: TS 119 612 XML (trusted lists, the LOTL) and TS 119 602 LoTE. */
export const listReaders: ListReaders = {
  xml: (body, pinned, options) => readTrustedList(body, pinned, options),
  lote: (body, pinned, options) => readLote(body, pinned, options),
};
