import { z } from 'zod';

/**
 * A trust source: a published list (ETSI TS 119 612 trusted list or the EU LOTL, ETSI TS 119 602
 * List of Trusted Entities) whose entities a tenant trusts for the service types named here, and
 * only for the credential types named here.
 */
export const TrustSourceType = z
  .enum(['trusted_list', 'lotl', 'lote'])
  .describe(
    'trusted_list: an ETSI TS 119 612 trusted list (XML, XAdES); lotl: a list of trusted lists, whose pointers are followed; lote: an ETSI TS 119 602 List of Trusted Entities (JSON, JAdES)',
  );

export const TrustServiceType = z
  .enum([
    'pid_provider',
    'eaa_provider',
    'qeaa_provider',
    'pub_eaa_provider',
    'wallet_provider',
    'registrar',
    'status_list_signer',
  ])
  .describe('What the listed entities are trusted for; each maps to the lists’ own service type identifiers');

export const TrustSourceId = z.string().uuid();

export const TrustSourceInput = z
  .object({
    type: TrustSourceType,
    url: z.string().url().max(2000).describe('Where the list is published (https)'),
    signer_certificates: z
      .array(z.string().min(1).max(20_000))
      .min(1)
      .max(20)
      .describe(
        'PEM certificates the list’s operator signs it with, pinned now: a list signed by any other is refused',
      ),
    service_types: z.array(TrustServiceType).min(1),
    vct_values: z
      .array(z.string().min(1).max(500))
      .max(200)
      .optional()
      .describe('SD-JWT VC types its issuers may vouch for'),
    doctype_values: z
      .array(z.string().min(1).max(500))
      .max(200)
      .optional()
      .describe(
        'mdoc doctypes its issuers may vouch for. With neither list the source vouches for any credential type; with either, only for the types listed',
      ),
    refresh_seconds: z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400)
      .optional()
      .describe(
        'Fetch at least this often (default: the deployment’s ceiling); the list’s NextUpdate can make it sooner',
      ),
  })
  .strict();

export const TrustSourceStatus = z.object({
  state: z
    .enum(['ok', 'stale', 'failed'])
    .describe(
      'ok: the last fetch validated; stale: the last fetch failed and the last good copy still vouches (until its NextUpdate plus the grace); failed: nothing of it vouches',
    ),
  fetched_at: z.string().datetime().nullable().describe('When the copy in force was fetched'),
  next_update: z.string().datetime().nullable().describe('The NextUpdate of the copy in force'),
  entities: z.number().int().describe('Entities of the copy in force with a service of the source’s types'),
  error: z.string().nullable().describe('Why the last fetch failed, if it did'),
});

export const TrustSource = TrustSourceInput.omit({ signer_certificates: true }).extend({
  id: TrustSourceId,
  signer_certificates: z.array(
    z.object({ sha256: z.string(), subject: z.string(), not_after: z.string().datetime() }),
  ),
  status: TrustSourceStatus,
  created_at: z.string().datetime(),
});

export const TrustSourceList = z.object({ items: z.array(TrustSource) });
