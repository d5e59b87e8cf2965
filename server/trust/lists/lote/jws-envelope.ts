import { TrustListError } from '../read-list.js';

/**
 * A LoTE as published, taken apart into the one JWS signature it carries, before anything is verified.
 *
 * ETSI TS 119 602 signs a JSON LoTE with a JAdES baseline B signature (ETSI TS 119 182-1). JAdES allows
 * both JWS serializations: the compact one (`application/jwt`) is what `@owf/eudi-lote`'s `signLoTE`
 * produces and what the EU reference lists and other published lists use; the JSON one (flattened, or
 * general with `signatures`) is what a JAdES signer with unprotected `etsiU` attributes produces, and what
 * the EU reference consultation library also accepts. Both are read here into the flattened form; a
 * general serialization must hold exactly one signature, because a LoTE has one signer, its scheme
 * operator, and a second signature could only be something this reader would not check.
 */
export interface JwsEnvelope {
  /** The protected header exactly as signed (base64url): the signature covers these characters. */
  protected: string;
  /** The payload exactly as signed (base64url). */
  payload: string;
  signature: string;
  /** The JSON serialization's unprotected header, if any (JAdES `etsiU`); never trusted for identity. */
  header?: Record<string, unknown>;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fromCompact(text: string): JwsEnvelope {
  const parts = text.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
    throw new TrustListError('malformed', 'the list is neither JSON nor a compact JWS');
  }
  const [protectedHeader, payload, signature] = parts as [string, string, string];
  return { protected: protectedHeader, payload, signature };
}

function fromJson(document: Record<string, unknown>): JwsEnvelope {
  const looksSigned = 'signature' in document || 'signatures' in document;
  if (!looksSigned) {
    // A bare LoTE, or any other JSON: nothing vouches for it, however well it is shaped.
    throw new TrustListError('signature_invalid', 'the list is not signed (plain JSON, no JWS)');
  }
  let entry: unknown = document;
  if ('signatures' in document) {
    const signatures = document.signatures;
    if (!Array.isArray(signatures) || signatures.length !== 1) {
      throw new TrustListError(
        'signature_invalid',
        'a LoTE in the JWS JSON serialization must carry exactly one signature',
      );
    }
    entry = signatures[0];
  }
  if (!isObject(entry)) throw new TrustListError('malformed', 'the JWS signature entry is not an object');
  const { protected: protectedHeader, signature, header } = entry;
  const { payload } = document;
  if (typeof protectedHeader !== 'string' || protectedHeader === '') {
    // JAdES puts the signer's certificate and the signing time in the protected header: without one,
    // nothing about the signer is signed.
    throw new TrustListError('signature_invalid', 'the JWS has no protected header');
  }
  if (typeof payload !== 'string' || typeof signature !== 'string') {
    throw new TrustListError('malformed', 'the JWS JSON serialization lacks its payload or signature');
  }
  if (header !== undefined && !isObject(header)) {
    throw new TrustListError('malformed', 'the JWS unprotected header is not an object');
  }
  return { protected: protectedHeader, payload, signature, ...(header ? { header } : {}) };
}

/** Takes the body apart; the text has been size-checked and decoded already. */
export function parseJwsEnvelope(text: string): JwsEnvelope {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return fromCompact(trimmed);
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch {
    throw new TrustListError('malformed', 'the list is not well-formed JSON');
  }
  if (!isObject(document)) throw new TrustListError('malformed', 'the list is not a JSON object');
  return fromJson(document);
}

/** Decodes a base64url segment as UTF-8 JSON, or says which part of the JWS it could not read. */
export function decodeJsonSegment(segment: string, what: string): unknown {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(segment, 'base64url'));
    return JSON.parse(text);
  } catch {
    throw new TrustListError('malformed', `the JWS ${what} is not base64url-encoded UTF-8 JSON`);
  }
}
