import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from './fixtures.js';
import type { startSmtpCatcher } from './smtp-catcher.js';

/**
 * An employee offer (or one of `configurationId`) with ui delivery, as a wallet meets it: the offer URI, where it points, and the
 * tx_code taken from the mail the employee got over SMTP.
 */
export async function mailedOffer(
  integrator: ReturnType<typeof createIntegratorClient>,
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>,
  email: string,
  payload: Record<string, unknown> = employeePayload(),
  configurationId = 'LEARCredentialEmployee',
  options: { approvalRequired?: boolean } = {},
) {
  const approval = options.approvalRequired ? { approval_required: true } : {};
  const res = await integrator.createIssuance({
    body: { credential_configuration_id: configurationId, payload, delivery: 'ui', email, ...approval },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const mail = await smtp.waitForMail(
    (m) => m.to.includes(email) && /activation code is/.test(m.raw),
    30_000,
  );
  const txCode = /activation code is: (\d{6})/.exec(mail.raw)?.[1] ?? '';
  const offerUri = res.body.credential_offer_uri;
  const location = decodeURIComponent(offerUri.split('credential_offer_uri=')[1] ?? '');
  return { offerId: res.body.offer_id, offerUri, location, txCode };
}
