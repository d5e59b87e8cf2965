import { initServer } from '@ts-rest/express';
import { adminContract } from '../../contract/admin/admin-contract.js';
import type { IssuedFormat } from '../../contract/credential-formats.js';
import { issuingFormat } from '../formats/credential-formats.js';
import type { CredentialConfiguration } from './credential-configuration.entity.js';
import {
  getConfiguration,
  listConfigurations,
  registerConfiguration,
} from './credential-configuration-registry.js';
import type { PayloadValidator } from './payload-validator.js';

const s = initServer();

const view = (c: CredentialConfiguration, issuerUrl: string) => ({
  id: c.id,
  format: c.format as IssuedFormat,
  ...(c.doctype ? { doctype: c.doctype } : { vct: issuingFormat(c).typeOf(c, issuerUrl) }),
  builtin: c.builtin,
  payload_schema: c.payloadSchema,
  selectively_disclosable: c.selectivelyDisclosable,
  validity_seconds: c.validitySeconds,
  display: c.display,
  claims: c.claims,
  ...(c.keyAttestationsRequired ? { key_attestations_required: c.keyAttestationsRequired } : {}),
});

/** Operators register the kinds of credential the issuer can issue. */
export function adminCredentialConfigurationRoutes(issuerUrl: string, validator: PayloadValidator) {
  return {
    listCredentialConfigurations: s.route(adminContract.listCredentialConfigurations, async ({ req }) => ({
      status: 200,
      body: { items: (await listConfigurations(req.em)).map((c) => view(c, issuerUrl)) },
    })),
    getCredentialConfiguration: s.route(
      adminContract.getCredentialConfiguration,
      async ({ params, req }) => ({
        status: 200,
        body: view(await getConfiguration(req.em, params.configurationId), issuerUrl),
      }),
    ),
    putCredentialConfiguration: s.route(
      adminContract.putCredentialConfiguration,
      async ({ params, body, req }) => {
        const saved = await registerConfiguration(
          req.em,
          {
            id: params.configurationId,
            format: body.format,
            vct: body.vct ?? null,
            doctype: body.doctype ?? null,
            payloadSchema: body.payload_schema,
            selectivelyDisclosable: body.selectively_disclosable,
            validitySeconds: body.validity_seconds,
            display: body.display,
            claims: body.claims,
            keyAttestationsRequired: body.key_attestations_required ?? null,
          },
          validator,
        );
        return { status: 200, body: view(saved, issuerUrl) };
      },
    ),
  };
}
