import { describe, expect, it } from 'vitest';
import { webhookEventOf } from '../../server/webhooks/webhook-events.js';

const audit = (action: string, subject: string, details: Record<string, unknown> = {}) => ({
  tenant_id: 'acme',
  action,
  subject,
  details,
  created_at: '2026-11-23T10:00:00.000Z',
});

/** The audit actions the services write (their details as written there) and the webhook each raises. */
describe('webhookEventOf', () => {
  it('turns a verified and a failed presentation into presentation events with the session id', () => {
    expect(
      webhookEventOf(audit('verification.verified', 's1', { credential_type: 'LEARCredentialEmployee' })),
    ).toEqual({
      type: 'presentation.verified',
      timestamp: '2026-11-23T10:00:00.000Z',
      tenant_id: 'acme',
      data: { session_id: 's1', credential_type: 'LEARCredentialEmployee' },
    });
    expect(
      webhookEventOf(audit('verification.failed', 's2', { reason: 'credential revoked' }))?.data,
    ).toEqual({
      session_id: 's2',
      reason: 'credential revoked',
    });
  });

  it('tells an approval’s integrator of it as an approval, with the approval id beside the session', () => {
    expect(webhookEventOf(audit('verification.verified', 's3', { approval: 'apr_1' }))).toMatchObject({
      type: 'approval.verified',
      data: { approval_id: 'apr_1', session_id: 's3' },
    });
    expect(
      webhookEventOf(
        audit('verification.failed', 's4', { approval: 'apr_2', reason: 'mandate_insufficient' }),
      ),
    ).toMatchObject({
      type: 'approval.failed',
      data: { approval_id: 'apr_2', session_id: 's4', reason: 'mandate_insufficient' },
    });
  });

  it('names the approval that approved an issuance, and never the approver', () => {
    const decided = audit('issuance.approved', 'iss1', {
      configuration: 'LEARCredentialEmployee',
      approval: 'apr_3',
      approver: 'boss@acme.test',
    });
    expect(webhookEventOf(decided)?.data).toEqual({
      issuance_id: 'iss1',
      credential_configuration_id: 'LEARCredentialEmployee',
      approval_id: 'apr_3',
    });
    // The integrator's own /approve names no approval.
    expect(
      webhookEventOf(audit('issuance.approved', 'iss2', { configuration: 'LEARCredentialEmployee' }))?.data,
    ).toEqual({ issuance_id: 'iss2', credential_configuration_id: 'LEARCredentialEmployee' });
  });

  it('tells SCIM provisioning and deprovisioning by user id and credential ids, never attributes', () => {
    const created = audit('scim.user.created', 'u1', {
      credential: 'issued',
      issued: ['c1'],
      revoked: [],
      issuance: 'offer-1',
      userName: 'ana.ruiz@acme.test',
    });
    expect(webhookEventOf(created)).toMatchObject({
      type: 'scim.user.provisioned',
      data: {
        scim_user_id: 'u1',
        credential_outcome: 'issued',
        credential_ids: ['c1'],
        issuance_id: 'offer-1',
      },
    });
    expect(JSON.stringify(webhookEventOf(created))).not.toContain('ana.ruiz');
    expect(webhookEventOf(audit('scim.user.deactivated', 'u1', { revoked: ['c1'] }))?.data).toEqual({
      scim_user_id: 'u1',
      reason: 'deactivated',
      credential_ids: ['c1'],
    });
    expect(webhookEventOf(audit('scim.user.deleted', 'u2', { revoked: [] }))?.type).toBe(
      'scim.user.deprovisioned',
    );
  });

  it('raises nothing for actions integrators are not told about', () => {
    for (const action of [
      'issuance.created',
      'token.issued',
      'webhook.created',
      'scim.user.updated',
      'offer.locked',
    ])
      expect(webhookEventOf(audit(action, 'x'))).toBeUndefined();
  });
});
