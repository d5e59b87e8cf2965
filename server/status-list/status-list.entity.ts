import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Entries per list unless a caller (a test) asks otherwise: 32 KiB of 2-bit statuses. */
export const DEFAULT_STATUS_LIST_SIZE = 131_072;
/** Two bits per entry: VALID, INVALID and SUSPENDED (one value spare). */
export const STATUS_LIST_BITS = 2;

/**
 * A Token Status List. Allocation numbers come from the global `status_list_entry_seq` sequence:
 * this list owns numbers [seqStart, seqStart + size), and the n-th of them maps to index
 * `permuteIndex(seed, size, n - seqStart)`. `statuses` is the raw byte array of the spec, changed
 * only by single SQL updates so that concurrent changes to one byte cannot overwrite each other;
 * every change bumps `version`, which is what the published token is compared against.
 *
 * Hot paths use SQL on the columns directly; the entity describes the table.
 */
export const StatusList = defineEntity({
  name: 'StatusList',
  tableName: 'status_list',
  properties: {
    id: p.uuid().primary(),
    seqStart: p.bigint('number'),
    size: p.integer(),
    bits: p.integer(),
    /** 32 random bytes keying the permutation; secret so that indexes do not reveal issuance order. */
    seed: p.blob().lazy(),
    statuses: p.blob().lazy(),
    version: p.bigint('number'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type StatusList = InferEntity<typeof StatusList>;

/**
 * The signed Status List Token last built for a list, kept apart from the list so that building
 * (which locks this row) and status changes (which lock the list row) never wait for each other.
 * The row exists from the moment its list does; `token` is null until the first build.
 */
export const StatusListToken = defineEntity({
  name: 'StatusListToken',
  tableName: 'status_list_token',
  properties: {
    listId: p.uuid().primary(),
    /** The list version the token was built from. */
    version: p.bigint('number').nullable(),
    token: p.text().nullable().lazy(),
    issuedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    /** When the pending renewal job of this list is due. */
    refreshAt: p.datetime().nullable(),
  },
});

export type StatusListToken = InferEntity<typeof StatusListToken>;
