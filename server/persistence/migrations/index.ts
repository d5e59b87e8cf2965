import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation.js';

/** Every migration, in order. Listed explicitly so that they run the same from source and from a bundle. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
];
