import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { grantOfRequest } from './access-token-guard.js';
import { recordWalletNotification } from './record-wallet-notification.js';

const s = initServer();

/** OID4VCI 1.0 section 11: the wallet tells what became of the credentials; audited. */
export function notificationRoute(ctx: Pick<AppContext, 'config' | 'sql'>) {
  return s.route(oid4vciContract.notification, async ({ body, req, res }) => {
    const { issuanceId } = await grantOfRequest(req, res, ctx);
    await recordWalletNotification(
      req.em,
      issuanceId,
      body.notification_id,
      body.event,
      body.event_description,
    );
    return { status: 204, body: undefined };
  });
}
