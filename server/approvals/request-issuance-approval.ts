import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  APPROVAL_TRANSACTION_TYPE,
  type IssuanceApprovalCreate,
  type RequiredPower,
} from '../../contract/approvals/approval.js';
import { provisioningOf } from '../directory/provisioning-settings.js';
import { conflict, notFound } from '../domain-errors.js';
import { Issuance } from '../issuance/issuance.entity.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { createApproval } from './create-approval.js';

/** Who may approve an issuance when neither the request nor the tenant's provisioning settings say. */
export const DEFAULT_ISSUANCE_APPROVAL_POWER: z.infer<typeof RequiredPower> = {
  function: 'Onboarding',
  action: 'Approve',
};

const SUBJECT_MAX = 200;

/**
 * The transaction an approver signs for an issuance: the built-in type, "Issue <configuration> to
 * <e-mail>" as its subject, and the issuance's id in the description, so that the approver's key
 * binding (its transaction_data_hashes) names this issuance and no other.
 */
export function issuanceTransaction(issuance: Pick<Issuance, 'id' | 'configurationId' | 'email'>) {
  const subject = `Issue ${issuance.configurationId} to ${issuance.email ?? issuance.id}`;
  return {
    type: APPROVAL_TRANSACTION_TYPE,
    subject: subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX - 1)}…` : subject,
    description: `Issuance ${issuance.id}`,
  };
}

/**
 * An approval of an issuance awaiting approval (deferred issuance): one made by createApproval, the
 * same as POST /api/v1/approvals, whose session also remembers the issuance. The power the approver
 * must hold comes from the request, else the tenant's provisioning `approval_power`, else
 * Onboarding / Approve. 404 for an issuance the tenant does not have, 409 unless it awaits approval
 * (the wallet has asked, nobody has decided, its 7 days have not passed).
 */
export async function requestIssuanceApproval(
  em: EntityManager,
  s: VerifierServices,
  tenantId: string,
  actor: string,
  issuanceId: string,
  body: z.infer<typeof IssuanceApprovalCreate>,
) {
  const issuance = await em.findOne(Issuance, { id: issuanceId, tenantId }, { disableIdentityMap: true });
  if (!issuance) throw notFound(`issuance ${issuanceId}`);
  const expired = !issuance.approvalExpiresAt || issuance.approvalExpiresAt <= new Date();
  if (issuance.status !== 'awaiting_approval' || expired)
    throw conflict(
      `issuance ${issuanceId} is not awaiting approval (it is ${issuance.status}${issuance.status === 'awaiting_approval' ? ', expired' : ''})`,
    );
  const power =
    body.power ?? (await provisioningOf(em, tenantId)).approvalPower ?? DEFAULT_ISSUANCE_APPROVAL_POWER;
  return createApproval(
    em,
    s,
    tenantId,
    actor,
    {
      transaction: issuanceTransaction(issuance),
      power,
      credential_configuration_id: body.credential_configuration_id,
      response_mode: body.response_mode,
      expected_origins: body.expected_origins,
    },
    { issuanceId },
  );
}
