import { expect } from 'vitest';
import {
  createAdminClient,
  createClient,
  createIntegratorClient,
} from '../../../clients/integrator/src/index.js';
import {
  fetchCredentialStatus,
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  type StoredCredential,
} from '../../../clients/wallet/src/index.js';
import { employeePayload } from '../fixtures.js';
import { EMPLOYEE_NS } from '../mdoc-wallet.js';
import { scimClient } from '../scim-client.js';
import { acmeTenant } from '../test-service.js';
import { until } from '../until.js';
import { approveWithDemoWallet, approveWithThirdPartyHolder } from './approval.js';
import { issueByAuthorizationCode } from './authorization-code.js';
import { consoleAsOperator } from './console-operator.js';
import { deferredLifecycle } from './deferred.js';
import type { Mailbox } from './mailbox.js';
import { mdocLifecycle } from './mdoc.js';
import { oidcLogin } from './oidc-login.js';
import { pidSignIn } from './pid-sign-in.js';
import { trustListLifecycle } from './trust-list.js';
import { issueWalletInitiated } from './wallet-initiated.js';
import { walletProviderListLifecycle } from './wallet-provider-list.js';

const http = { allowHttp: true };
type Integrator = ReturnType<typeof createIntegratorClient>;

/**
 * The whole mission as a newcomer meets it, against any running service: a tenant, issuance in
 * every delivery mode redeemed by a wallet, revocation seen in the status list, a presentation,
 * an OIDC login, concurrent credential requests, SCIM provisioning and the audit chain. The same
 * steps run on the embedded default (spawned `npm start`) and on a pool of one connection.
 */
export class Mission {
  readonly admin: ReturnType<typeof createAdminClient>;
  /** Every API in one client (trust anchors are not in the admin contract's router). */
  readonly service: ReturnType<typeof createClient>;
  integrator!: Integrator;
  tenant!: { id: string; integrator_token: string; scim_token: string };
  private n = 0;

  constructor(
    readonly baseUrl: string,
    adminToken: string,
    readonly mailbox: Mailbox,
  ) {
    this.admin = createAdminClient({ baseUrl, token: adminToken });
    this.service = createClient({ baseUrl, token: adminToken });
  }

  /** Reuses a tenant made earlier (after a restart), or makes one with a mandator. */
  use(tenant: Mission['tenant']) {
    this.tenant = tenant;
    this.integrator = createIntegratorClient({ baseUrl: this.baseUrl, token: tenant.integrator_token });
  }

  async createTenant() {
    const res = await this.admin.createTenant({ body: acmeTenant() });
    expect(res.status).toBe(201);
    if (res.status === 201) this.use(res.body);
    return this.tenant;
  }

  wallet() {
    return new HolderWallet({ crypto: inMemoryHolderCrypto(), store: inMemoryCredentialStore(), http });
  }

  private nextEmail = () => `employee-${++this.n}-${Date.now()}@acme.test`;

  private async offer(delivery: 'ui' | 'email', email: string) {
    const payload = employeePayload();
    const res = await this.integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: { ...payload, mandatee: { ...payload.mandatee, email } },
        delivery,
        email,
      },
    });
    expect(res.status).toBe(201);
    return res.status === 201 ? res.body : undefined;
  }

  /** ui: the offer URI comes back; the tx_code is mailed. The wallet redeems it. */
  async issueUi(wallet = this.wallet()) {
    const email = this.nextEmail();
    const offer = await this.offer('ui', email);
    const txCode = /activation code is: (\d{6})/.exec(
      await this.mailbox.find(email, /activation code is/),
    )?.[1];
    const [stored] = await wallet.receive(offer?.credential_offer_uri ?? '', { txCode: txCode ?? '' });
    return { wallet, stored: stored as StoredCredential, offerId: offer?.offer_id ?? '' };
  }

  /** email: the offer page and the tx_code come in two mails; the wallet follows the page's link. */
  async issueEmail(wallet = this.wallet()) {
    const email = this.nextEmail();
    await this.offer('email', email);
    return { wallet, stored: await this.redeemMailed(email, wallet) };
  }

  /** Opens the mailed offer page, takes its same-device link and redeems it with the mailed tx_code. */
  async redeemMailed(email: string, wallet: HolderWallet) {
    const pageUrl = /(https?:\/\/\S+\/oid4vci\/v1\/offer\/[\w-]+)/.exec(
      await this.mailbox.find(email, /\/oid4vci\/v1\/offer\//),
    )?.[1];
    const txCode = /activation code is: (\d{6})/.exec(
      await this.mailbox.find(email, /activation code is/),
    )?.[1];
    const page = await (await fetch(pageUrl ?? '')).text();
    const link = /href="(openid-credential-offer:[^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    const [stored] = await wallet.receive(link ?? '', { txCode: txCode ?? '' });
    return stored as StoredCredential;
  }

  /** HAIP's authorization code flow (PAR, mailed one-time code, DPoP) with a third-party wallet. */
  issueByAuthorizationCode() {
    return issueByAuthorizationCode(this.baseUrl, this.integrator, this.mailbox, this.nextEmail());
  }

  /** Wallet-initiated issuance (no offer): the SCIM user's credential after the mailed code. */
  issueWalletInitiated(issuerUrl = this.baseUrl) {
    return issueWalletInitiated(this.baseUrl, issuerUrl, this.tenant, this.mailbox, this.nextEmail());
  }

  /** direct: the signed credential is in the answer, bound to the wallet's key. */
  async issueDirect() {
    const crypto = inMemoryHolderCrypto();
    const key = await crypto.createKey();
    const res = await this.integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'direct',
        holder_key: key.publicJwk as never,
      },
    });
    expect(res.status).toBe(201);
    const credential = res.status === 201 ? (res.body.credential ?? '') : '';
    expect(credential.split('~').length).toBeGreaterThan(2);
    return credential;
  }

  async credentialIdOf(offerId: string) {
    const res = await this.integrator.getIssuance({ params: { id: offerId } });
    return res.status === 200 ? (res.body.credentials[0]?.id ?? '') : '';
  }

  /** Revokes and waits until the published, signed status list says so. */
  async revokeAndSee(credentialId: string, stored: StoredCredential) {
    const res = await this.integrator.revokeCredential({ params: { id: credentialId } });
    expect(res.status).toBe(200);
    await this.seeRevoked(stored);
  }

  /** Waits until the published, signed status list says the credential is revoked. */
  async seeRevoked(stored: StoredCredential) {
    const ref =
      stored.statusReference ??
      (stored.claims.status as { status_list: { idx: number; uri: string } }).status_list;
    const status = await until(
      () => fetchCredentialStatus(ref, stored.issuer, http),
      (s) => s.value === 1,
      15_000,
    );
    expect(status.label).toBe('INVALID');
  }

  /** A verification session answered by the wallet and polled by the integrator. */
  async presentAndPoll(wallet: HolderWallet) {
    const session = await this.integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee' },
    });
    expect(session.status).toBe(201);
    if (session.status !== 201) return;
    await wallet.present(session.body.authorization_request_uri, http);
    const polled = await this.integrator.getAuthorizationRequest({ params: { id: session.body.session_id } });
    expect(polled.body).toMatchObject({ status: 'verified', verified: true });
  }

  /** An employee approves an action their credential's power allows, with the demo wallet and a third-party holder. */
  async approve(wallet: HolderWallet) {
    await approveWithDemoWallet(this.integrator, wallet);
    await approveWithThirdPartyHolder(this.integrator);
  }

  /**
   * Issuances behind an approval: one approved and collected from the deferred endpoint, one
   * declined, one approved by an approver's presented approval.
   */
  /** The console as the operator: a one-time link, the tenant's pages, an offer withdrawn by a form. */
  async consoleAsOperator() {
    await consoleAsOperator(this.baseUrl, this.service, this.integrator, this.tenant.id);
  }

  async deferredLifecycle() {
    await deferredLifecycle(this.integrator, this.mailbox, () => this.wallet(), this.nextEmail);
  }

  /** A PID-like credential trusted through a published list (ETSI TS 119 602), then no longer. */
  async trustListLifecycle() {
    await trustListLifecycle(this.service, this.integrator, this.tenant.id);
  }

  /** A wallet attestation trusted through a published wallet providers list. */
  async walletProviderListLifecycle() {
    await walletProviderListLifecycle(
      this.baseUrl,
      this.service,
      this.integrator,
      this.tenant.id,
      this.mailbox,
      this.nextEmail(),
    );
  }

  /**
   * The employee credential as an ISO mdoc: issued by HAIP's authorization code flow (a third-party
   * wallet: PAR, DPoP) and by pre-authorized code, presented over direct_post.jwt, revoked and refused.
   */
  async mdocLifecycle() {
    await issueByAuthorizationCode(
      this.baseUrl,
      this.integrator,
      this.mailbox,
      this.nextEmail(),
      EMPLOYEE_NS,
    );
    await mdocLifecycle(
      this.baseUrl,
      this.service,
      this.integrator,
      this.tenant.id,
      this.mailbox,
      this.nextEmail,
    );
  }

  /**
   * A tenant whose holders sign in for issuance by presenting a PID (of a provider made in the test,
   * trusted by its CA) instead of a mailed code: a third-party wallet gets its employee credential.
   */
  pidSignIn() {
    return pidSignIn(this.baseUrl, this.service, this.tenant);
  }

  oidcLogin(wallet: HolderWallet) {
    return oidcLogin(this.baseUrl, this.admin, this.tenant.id, wallet);
  }

  /** Several wallets redeem their offers at once: no request may wait on another's transaction. */
  async concurrentRedemptions(count: number) {
    const got = await Promise.all(Array.from({ length: count }, () => this.issueUi()));
    expect(new Set(got.map((g) => g.stored.compact)).size).toBe(count);
  }

  /**
   * A SCIM user is created (credential issued), replaced with a new name (renewed: the old one
   * revoked, a new offer), put in a group and taken out again (credential untouched), deactivated
   * (the offer withdrawn) and deleted: each write one statement of its own.
   */
  async scimLifecycle() {
    const scim = scimClient(this.baseUrl, this.tenant.id, this.tenant.scim_token);
    const email = this.nextEmail();
    const resource = (givenName: string) => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName, familyName: 'Ruiz' },
      emails: [{ value: email, primary: true }],
    });
    const created = await scim.post('/Users', resource('Ana'));
    expect(created.status).toBe(201);
    const path = `/Users/${created.body.id}`;
    const ext = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';
    expect(created.body[ext]).toMatchObject({ status: 'offered' });
    const stored = await this.redeemMailed(email, this.wallet());
    expect((await scim.get(path)).body[ext]).toMatchObject({ status: 'valid' });

    const renewed = await scim.put(path, resource('Anna'));
    expect(renewed.status).toBe(200);
    expect(renewed.body[ext]).toMatchObject({ status: 'offered' });
    expect(renewed.body[ext].issuanceId).not.toBe(created.body[ext].issuanceId);
    await this.seeRevoked(stored);

    const group = await scim.post('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: `Team ${created.body.id}`,
      members: [{ value: created.body.id }],
    });
    expect(group.status).toBe(201);
    expect((await scim.get(path)).body.groups).toEqual([expect.objectContaining({ value: group.body.id })]);
    const left = await scim.patch(`/Groups/${group.body.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'remove', path: `members[value eq "${created.body.id}"]` }],
    });
    expect(left.status).toBe(204);
    expect((await scim.get(path)).body).toMatchObject({ groups: [], [ext]: { status: 'offered' } });

    const off = await scim.patch(path, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(204);
    expect((await scim.get(path)).body[ext]).toMatchObject({ status: 'none', reason: 'user deactivated' });
    expect((await scim.delete(path)).status).toBe(204);
    expect((await scim.get(path)).status).toBe(404);
    expect((await scim.delete(`/Groups/${group.body.id}`)).status).toBe(204);
  }

  /** The tenant's audit chain verifies once every event is sealed. */
  async auditVerified() {
    const verified = await until(
      async () => (await this.admin.verifyAuditChain({ params: { id: this.tenant.id } })).body,
      (b) =>
        (b as { valid?: boolean; unsealed?: number }).valid === true &&
        !(b as { unsealed?: number }).unsealed,
      15_000,
    );
    expect(verified).toMatchObject({ valid: true });
    return verified as { valid: boolean; checked: number };
  }
}
