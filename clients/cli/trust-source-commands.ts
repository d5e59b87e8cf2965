import { readFileSync } from 'node:fs';
import { createClient } from '../integrator/src/index.js';

export const TRUST_SOURCE_USAGE = `  trust-source add <tenant id> --type <lote|trusted_list|lotl> --url U --signer-certificate signer.pem…
                 --service-type <pid_provider|eaa_provider|qeaa_provider|pub_eaa_provider|wallet_provider|registrar|status_list_signer>…
                 [--vct V]… [--doctype D]… [--refresh-seconds N]
  trust-source list <tenant id>
  trust-source show <tenant id> <source id>
  trust-source refresh <tenant id> <source id>
  trust-source remove <tenant id> <source id>`;

export interface TrustSourceOptions {
  type?: string;
  url?: string;
  'signer-certificate'?: string[];
  'service-type'?: string[];
  vct?: string[];
  doctype?: string[];
  'refresh-seconds'?: string;
}

type SourceInput = Parameters<ReturnType<typeof createClient>['trustSources']['addTrustSource']>[0]['body'];

/**
 * `trust-source …`: the published lists (ETSI TS 119 602 LoTE, TS 119 612 trusted lists and the
 * LOTL) a tenant trusts by. `add` reads the pinned signer certificates from PEM files; the service
 * checks the values and says what is wrong. Undefined for an unknown sub-command.
 */
export function trustSourceCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [tenant, sourceId]: (string | undefined)[],
  values: TrustSourceOptions,
  need: (v: string | undefined, what: string) => string,
): Promise<{ status: number; body: unknown }> | undefined {
  const sources = createClient(o).trustSources;
  const id = () => need(tenant, 'tenant id');
  const params = () => ({ id: id(), sourceId: need(sourceId, 'source id') });
  switch (command) {
    case 'add': {
      const body = {
        type: need(values.type, '--type'),
        url: need(values.url, '--url'),
        signer_certificates: (values['signer-certificate'] ?? []).map((file) => readFileSync(file, 'utf8')),
        service_types: values['service-type'] ?? [],
        ...(values.vct ? { vct_values: values.vct } : {}),
        ...(values.doctype ? { doctype_values: values.doctype } : {}),
        ...(values['refresh-seconds'] ? { refresh_seconds: Number(values['refresh-seconds']) } : {}),
      } as SourceInput;
      return sources.addTrustSource({ params: { id: id() }, body });
    }
    case 'list':
      return sources.listTrustSources({ params: { id: id() } });
    case 'show':
      return sources.getTrustSource({ params: params() });
    case 'refresh':
      return sources.refreshTrustSource({ params: params() });
    case 'remove': {
      const p = params();
      // 204 has no body: print what was removed instead of nothing.
      return sources
        .deleteTrustSource({ params: p })
        .then((res) => (res.status === 204 ? { status: 204, body: { removed: p.sourceId } } : res));
    }
    default:
      return undefined;
  }
}
