import { createHash } from 'node:crypto';
import type { Signer } from '../keys/signer.js';
import type { PresentationSession } from '../verification/presentation-session.entity.js';
import type { SessionApproval } from './session-approval.js';

export const RECEIPT_TYP = 'approval-receipt+jwt';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The issuer-signed payload of an SD-JWT presentation, read without checking (it was just verified). */
function issuerPayload(presentation: string): Record<string, unknown> {
  try {
    const [, payload] = presentation.split('~')[0]?.split('.') ?? [];
    return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export interface ReceiptInput {
  session: Pick<PresentationSession, 'id' | 'tenantId' | 'transactionData' | 'approvalId'>;
  approval: SessionApproval;
  /** The verified presentation as the wallet sent it: issuer JWT, disclosures, KB-JWT. */
  presentation: string;
  /** The claims it disclosed. */
  claims: Record<string, unknown>;
}

/**
 * Evidence of an approval a third party can check offline: a JWS (`typ approval-receipt+jwt`,
 * ES256, the verifier key's chain in `x5c`) over the approval (transaction, required power, the
 * transaction data as sent), the presentation itself (the issuer-signed credential, the disclosures
 * and the holder's KB-JWT, whose `transaction_data_hashes` bind it to this transaction), the
 * credential's status reference and its status when verified (valid: a revoked or suspended one is
 * never approved), the KB-JWT's hash and the time.
 */
export async function signApprovalReceipt(
  signer: Signer,
  verifierUrl: string,
  input: ReceiptInput,
): Promise<string> {
  const kbJwt = input.presentation.slice(input.presentation.lastIndexOf('~') + 1);
  const credential = issuerPayload(input.presentation);
  const now = Math.floor(Date.now() / 1000);
  return signer.signJwt(
    'verifier',
    { typ: RECEIPT_TYP },
    {
      iss: verifierUrl,
      iat: now,
      jti: input.session.approvalId,
      approval: {
        id: input.session.approvalId,
        session_id: input.session.id,
        tenant_id: input.session.tenantId,
        transaction: input.approval.transaction,
        power: input.approval.power,
        transaction_data: input.session.transactionData,
      },
      approver: input.claims,
      credential: {
        issuer: credential.iss,
        vct: credential.vct,
        ...(credential.status ? { status: credential.status } : {}),
        status_at_approval: 'valid',
      },
      presentation: input.presentation,
      kb_jwt_sha256: sha256(kbJwt),
    },
    { x5c: true },
  );
}
