import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAdminClient } from '../integrator/src/index.js';
import { CONSOLE_USAGE, consoleCommand } from './console-commands.js';
import {
  HOLDER_SIGN_IN_PRESENTATION_USAGE,
  holderSignInPresentationCommand,
} from './holder-sign-in-presentation-commands.js';
import { PROVISIONING_USAGE, provisioningCommand } from './provisioning-commands.js';
import {
  REGISTRATION_CERTIFICATE_USAGE,
  registrationCertificateCommand,
} from './registration-certificate-commands.js';
import { TRUST_ANCHOR_USAGE, trustAnchorCommand } from './trust-anchor-commands.js';
import { TRUST_SOURCE_USAGE, trustSourceCommand } from './trust-source-commands.js';
import { APPROVAL_USAGE, verifyApprovalReceipt } from './verify-approval-receipt.js';
import { WEBHOOK_USAGE, webhookCommand } from './webhook-commands.js';

/**
 * `npm run cli -- <command>`: the admin API from a terminal, printing JSON.
 * Reads CREDSERVICE_URL (default http://localhost:3000) and ADMIN_TOKEN.
 */
const USAGE = `usage: npm run cli -- <command>
  tenant create <id> --name <name> --delivery email|direct
        [--mandator-organization-identifier X --mandator-organization X
         --mandator-common-name X --mandator-email X --mandator-country XX]
  tenant update <id> [--name X] [--delivery email|direct] [--mandator-… as above]
        [--mail-from "Name <address>"] [--logo-uri https://…] [--primary-color '#rrggbb']
        [--presentation-profile haip-1.0|none]
  tenant list
  tenant get <id>
  tenant rotate-token <id> --kind integrator|scim [--expires-at <iso time>]
  tenant revoke-token <id> <token id>
  audit list <tenant id> [--action A] [--since T] [--until T] [--after N] [--limit N]
  audit verify <tenant id>
  keys list
  keys rotate <issuer|document-signer|status-list|verifier|oidc|audit>
  keys rotate --all            (every purpose, into the configured KEY_STORE: software keys to an HSM)
  keys retire <kid>            (a retiring key: no longer published or used)
  keys destroy <kid>           (a retired key's private part, for good: C_DestroyObject in a token)
  keys events [kid]
  keys csr <purpose> [--subject "CN=…, O=…"] [--dns-name N]… [--ip-address A]… [--uri U]… [--out file.csr]
  keys import-chain <kid> <chain.pem>
  keys development-ca [--out root.pem]
${PROVISIONING_USAGE}
${WEBHOOK_USAGE}
${TRUST_ANCHOR_USAGE}
${HOLDER_SIGN_IN_PRESENTATION_USAGE}
${TRUST_SOURCE_USAGE}
${APPROVAL_USAGE}
${REGISTRATION_CERTIFICATE_USAGE}
${CONSOLE_USAGE}
environment: CREDSERVICE_URL (default http://localhost:3000), ADMIN_TOKEN`;

// Key ids and tokens are base64url and may begin with '-' (`-uX…`): parseArgs would take them for
// unknown short options. The CLI's one short option is -h, so such an argument is a value: it is
// shielded from parseArgs and given back as it was.
const SHIELD = '\u0001';
const shielded = process.argv.slice(2).map((a) => (/^-[^-]./.test(a) ? `${SHIELD}${a}` : a));
const unshield = <T>(v: T): T =>
  (typeof v === 'string'
    ? v.replace(SHIELD, '')
    : Array.isArray(v)
      ? v.map((x) => (typeof x === 'string' ? x.replace(SHIELD, '') : x))
      : v) as T;

const parsed = parseArgs({
  args: shielded,
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    administrator: { type: 'string' },
    auditor: { type: 'string' },
    delivery: { type: 'string' },
    kind: { type: 'string' },
    'expires-at': { type: 'string' },
    action: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    after: { type: 'string' },
    limit: { type: 'string' },
    'mandator-organization-identifier': { type: 'string' },
    'mandator-organization': { type: 'string' },
    'mandator-common-name': { type: 'string' },
    'mandator-email': { type: 'string' },
    'mandator-country': { type: 'string' },
    'mail-from': { type: 'string' },
    'logo-uri': { type: 'string' },
    'primary-color': { type: 'string' },
    'presentation-profile': { type: 'string' },
    subject: { type: 'string' },
    'dns-name': { type: 'string', multiple: true },
    'ip-address': { type: 'string', multiple: true },
    uri: { type: 'string', multiple: true },
    out: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'string' },
    description: { type: 'string' },
    overlap: { type: 'string' },
    type: { type: 'string' },
    'signer-certificate': { type: 'string', multiple: true },
    'service-type': { type: 'string', multiple: true },
    vct: { type: 'string', multiple: true },
    doctype: { type: 'string', multiple: true },
    'refresh-seconds': { type: 'string' },
    root: { type: 'string' },
    'approval-required': { type: 'string' },
    'approval-power': { type: 'string' },
    all: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
const positionals = parsed.positionals.map(unshield);
const values = Object.fromEntries(
  Object.entries(parsed.values).map(([k, v]) => [k, unshield(v)]),
) as typeof parsed.values;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const token = process.env.ADMIN_TOKEN ?? fail('ADMIN_TOKEN is not set');
const baseUrl = process.env.CREDSERVICE_URL ?? 'http://localhost:3000';
const admin = createAdminClient({ baseUrl, token });
const [group, command, id, extra] = positionals;

const need = (v: string | undefined, what: string) => v ?? fail(`missing ${what}\n${USAGE}`);

function mandator() {
  const m = {
    organizationIdentifier: values['mandator-organization-identifier'],
    organization: values['mandator-organization'],
    commonName: values['mandator-common-name'],
    email: values['mandator-email'],
    country: values['mandator-country'],
  };
  if (Object.values(m).every((v) => v === undefined)) return undefined;
  return m as { [K in keyof typeof m]: string };
}

/** Both branding flags or one: the API replaces the whole branding, so what is not given is unset. */
function branding() {
  const logo = values['logo-uri'];
  const color = values['primary-color'];
  if (logo === undefined && color === undefined) return undefined;
  return { ...(logo ? { logo_uri: logo } : {}), ...(color ? { primary_color: color } : {}) };
}

/** `none` switches the profile off (null); anything else is sent as given, for the API to judge. */
function presentationProfile() {
  const value = values['presentation-profile'];
  if (value === undefined) return undefined;
  return value === 'none' ? null : (value as 'haip-1.0');
}

async function run(): Promise<{ status: number; body: unknown }> {
  switch (`${group} ${command}`) {
    case 'tenant create':
      return admin.createTenant({
        body: {
          id: need(id, 'tenant id'),
          name: need(values.name, '--name'),
          delivery: need(values.delivery, '--delivery') as 'email' | 'direct',
          mandator: mandator(),
        },
      });
    case 'tenant update':
      return admin.updateTenant({
        params: { id: need(id, 'tenant id') },
        body: {
          name: values.name,
          delivery: values.delivery as 'email' | 'direct' | undefined,
          mandator: mandator(),
          mail_from: values['mail-from'],
          branding: branding(),
          presentation_profile: presentationProfile(),
        },
      });
    case 'tenant list':
      return admin.listTenants({ query: {} });
    case 'tenant get':
      return admin.getTenant({ params: { id: need(id, 'tenant id') } });
    case 'tenant rotate-token':
      return admin.createToken({
        params: { id: need(id, 'tenant id') },
        body: {
          kind: need(values.kind, '--kind') as 'integrator' | 'scim',
          expires_at: values['expires-at'],
        },
      });
    case 'tenant revoke-token':
      return admin.revokeToken({ params: { id: need(id, 'tenant id'), tokenId: need(extra, 'token id') } });
    case 'audit list':
      return admin.listAuditEvents({
        params: { id: need(id, 'tenant id') },
        query: {
          action: values.action,
          since: values.since,
          until: values.until,
          after: values.after === undefined ? undefined : Number(values.after),
          limit: values.limit === undefined ? undefined : Number(values.limit),
        },
      });
    case 'audit verify':
      return admin.verifyAuditChain({ params: { id: need(id, 'tenant id') } });
    case 'keys list':
      return admin.listSigningKeys();
    case 'keys rotate':
      if (values.all) return admin.rotateAllSigningKeys();
      return admin.rotateSigningKey({
        params: { purpose: need(id, 'purpose (or --all)') as 'issuer' },
      });
    case 'keys retire':
      return admin.retireSigningKey({ params: { kid: need(id, 'kid') } });
    case 'keys destroy':
      return admin.destroySigningKey({ params: { kid: need(id, 'kid') } });
    case 'keys events':
      return admin.listSigningKeyEvents({ query: id ? { kid: id } : {} });
    case 'keys csr': {
      const res = await admin.createCertificateSigningRequest({
        params: { purpose: need(id, 'purpose') as 'issuer' },
        body: {
          subject: values.subject,
          dns_names: values['dns-name'],
          ip_addresses: values['ip-address'],
          uris: values.uri,
        },
      });
      if (res.status === 200 && values.out) writeFileSync(values.out, res.body.csr);
      return res;
    }
    case 'keys import-chain': {
      const file = need(extra, 'chain file (PEM)');
      return admin.importCertificateChain({
        params: { kid: need(id, 'kid') },
        body: { certificate_chain: readFileSync(file, 'utf8') },
      });
    }
    case 'keys development-ca': {
      const res = await admin.getDevelopmentCa();
      if (res.status === 200 && values.out) writeFileSync(values.out, res.body.pem);
      return res;
    }
    default:
      if (group === 'provisioning') {
        const ran = provisioningCommand(
          { baseUrl, token },
          command,
          positionals.slice(2),
          values,
          need,
          fail,
        );
        if (ran) return ran;
      }
      if (group === 'webhook') {
        const ran = webhookCommand({ baseUrl, token }, command, positionals.slice(2), values, need);
        if (ran) return ran;
      }
      if (group === 'approval' && command === 'verify-receipt')
        return verifyApprovalReceipt(need(id, 'receipt file'), need(values.root, '--root ca.pem'));
      if (group === 'trust-source') {
        const ran = trustSourceCommand({ baseUrl, token }, command, positionals.slice(2), values, need);
        if (ran) return ran;
      }
      if (group === 'trust-anchor') {
        const ran = trustAnchorCommand({ baseUrl, token }, command, positionals.slice(2), need);
        if (ran) return ran;
      }
      if (group === 'holder-sign-in-presentation') {
        const ran = holderSignInPresentationCommand({ baseUrl, token }, command, positionals.slice(2), need);
        if (ran) return ran;
      }
      if (group === 'console') {
        const ran = consoleCommand({ baseUrl, token }, command, positionals.slice(2), values, need);
        if (ran) return ran;
      }
      if (group === 'registration-certificate') {
        const ran = registrationCertificateCommand({ baseUrl, token }, command, positionals.slice(2), need);
        if (ran) return ran;
      }
      return fail(USAGE);
  }
}

if (values.help || !group) fail(USAGE);
try {
  const { status, body } = await run();
  console.log(JSON.stringify(body, null, 2));
  process.exit(status >= 400 ? 1 : 0);
} catch (e) {
  fail(`request failed: ${(e as Error).message}`);
}
