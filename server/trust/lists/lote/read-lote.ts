import { MAX_LIST_BYTES, type ReadList, TrustListError } from '../read-list.js';
import { parseJwsEnvelope } from './jws-envelope.js';
import { checkLoteShape } from './lote-shape.js';
import { mapLote } from './map-lote.js';
import { verifyPinnedSignature } from './pinned-signature.js';

/**
 * Reads an ETSI TS 119 602 List of Trusted Entities in its JSON syntax, signed with JAdES (a JWS), as
 * its distribution point serves it.
 *
 * The order is the order of trust: the size before anything is parsed; the signature, by a pinned
 * certificate, before anything in the payload is looked at; the payload's shape before anything is
 * taken from it; and `NextUpdate` last, since only a genuine, well-formed list says when it expires.
 * Any failure refuses the whole list with a `TrustListError` (never a part of it), so the caller keeps
 * its last good copy.
 *
 * @param body the list as fetched: compact JWS, or JWS JSON serialization
 * @param pinned the certificates the list's operator may sign with, standard base64 DER
 */
export async function readLote(
  body: Buffer | string,
  pinned: readonly string[],
  options: { now?: Date } = {},
): Promise<ReadList> {
  const now = options.now ?? new Date();
  const size = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  if (size > MAX_LIST_BYTES) {
    throw new TrustListError('too_large', `the list has ${size} bytes, over the ${MAX_LIST_BYTES} accepted`);
  }
  const text = typeof body === 'string' ? body : decodeUtf8(body);

  const envelope = parseJwsEnvelope(text);
  const { payload, signedBy } = await verifyPinnedSignature(envelope, pinned, now);
  const lote = checkLoteShape(parseJson(payload));
  const list = mapLote(lote, signedBy);

  if (list.nextUpdate && now > list.nextUpdate) {
    throw new TrustListError('expired', `the list's NextUpdate ${list.nextUpdate.toISOString()} has passed`);
  }
  return list;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TrustListError('malformed', 'the list is not UTF-8 text');
  }
}

function parseJson(payload: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(payload));
  } catch (e) {
    if (e instanceof TrustListError) throw e;
    throw new TrustListError('malformed', 'the signed payload is not JSON');
  }
}
