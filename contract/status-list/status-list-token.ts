import { z } from 'zod';

/** Media type of a Status List Token in JWT format (response Content-Type and JWT `typ`). */
export const STATUS_LIST_JWT_MEDIA_TYPE = 'application/statuslist+jwt';
/** Token Status List section 8.1: the CWT form of the same list (mdocs reference their status in CBOR). */
export const STATUS_LIST_CWT_MEDIA_TYPE = 'application/statuslist+cwt';

export const StatusListTokenHeader = z.object({
  typ: z.literal('statuslist+jwt'),
  alg: z.literal('ES256'),
  kid: z.string().min(1),
});

/** The `status_list` claim: `lst` is the base64url of the ZLIB-compressed byte array. */
export const StatusListClaim = z.object({
  bits: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8)]),
  lst: z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url'),
  aggregation_uri: z.string().url().optional(),
});

/** The claims of a Status List Token as this service signs them. */
export const StatusListTokenPayload = z.object({
  /** The list's URI: equal to `status.status_list.uri` of the credentials that point into it. */
  sub: z.string().url(),
  iat: z.number().int(),
  exp: z.number().int(),
  /** Seconds a consumer may cache the token, counted from when it fetched it. */
  ttl: z.number().int().positive(),
  status_list: StatusListClaim,
});

export type StatusListTokenPayload = z.infer<typeof StatusListTokenPayload>;

/** `status.status_list` of a Referenced Token (the credential): where its status lives. */
export const StatusListReference = z.object({
  idx: z.number().int().nonnegative(),
  uri: z.string().url(),
});

export type StatusListReference = z.infer<typeof StatusListReference>;
