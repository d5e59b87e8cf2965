import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
} from '../../clients/wallet/src/index.js';
import { employeePayload } from './fixtures.js';
import { mailedOffer } from './mailed-offer.js';
import type { startSmtpCatcher } from './smtp-catcher.js';

export const walletHttp = { allowHttp: true };

/**
 * A holder wallet that has received an employee credential the way an employee does: the integrator
 * creates an offer, the tx_code comes by mail, the wallet redeems the offer over OID4VCI.
 */
export async function walletWithCredential(
  integrator: ReturnType<typeof createIntegratorClient>,
  smtp: Awaited<ReturnType<typeof startSmtpCatcher>>,
  email: string,
) {
  const payload = employeePayload();
  const offer = await mailedOffer(integrator, smtp, email, {
    ...payload,
    mandatee: { ...payload.mandatee, email },
  });
  const wallet = new HolderWallet({
    crypto: inMemoryHolderCrypto(),
    store: inMemoryCredentialStore(),
    http: walletHttp,
  });
  const [stored] = await wallet.receive(offer.offerUri, { txCode: offer.txCode });
  if (!stored) throw new Error('nothing received');
  const issued = await integrator.getIssuance({ params: { id: offer.offerId } });
  const credentialId = issued.status === 200 ? issued.body.credentials[0]?.id : undefined;
  if (!credentialId) throw new Error('no credential id');
  return { wallet, stored, credentialId };
}
