import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileWallet } from './src/file-wallet-store.js';
import {
  type DcqlMatch,
  DeferredIssuance,
  describeTransactionData,
  dottedPath,
  HolderWallet,
  PresentationDeclinedError,
  type PresentOptions,
  type StoredCredential,
  type TransactionData,
  TransactionDataNotApprovedError,
  WalletError,
} from './src/index.js';

/**
 * A demo holder whose keys and credentials live in a directory (`--store`, default
 * ~/.credservice-wallet), so that one run receives and a later one presents:
 *   receive <offer-uri> --tx-code 123456   redeems an `openid-credential-offer://` link, verifies
 *                                           and stores the credential (an SD-JWT VC or an mdoc),
 *                                           prints its claims and status
 *     --configuration EmployeeMdoc         which of the offered configurations (default the first)
 *     --wait 120                           when the issuer defers (approval pending, OID4VCI 8.3),
 *                                           asks its deferred endpoint every `interval` for up to
 *                                           that many seconds; without it a deferral is an error
 *                                           (the transaction_id is printed; the access token lives
 *                                           only minutes, so waiting in this run is what works)
 *   present <openid4vp-uri>                answers a verifier's request with a stored credential;
 *     --only mandatee.email (repeatable)   discloses only those of the requested claims (an mdoc's
 *                                           by `namespace.element` or the element name alone)
 *     --dry-run                            prints what would be disclosed and sends nothing
 *     --approve                            signs the request's transaction data (an approval of a
 *                                           purchase order, say) after printing it on stderr;
 *                                           without it such a request is refused, nothing sent
 *     --approve-type URN (repeatable)      accepts transaction data of a type the wallet does not
 *                                           know; it is printed whole
 *   list                                   prints the stored credentials and their current status
 * Every command prints one JSON document on stdout. `--allow-http` for a local service without TLS.
 */
const USAGE = `usage: npx tsx clients/wallet/cli.ts <command> [options]
  receive <offer-uri> [--tx-code CODE]   redeem a credential offer and store the credential
    [--configuration ID]                 which offered configuration to request (default the first)
    [--wait SECONDS]                     wait this long for a deferred issuance (pending approval)
  present <openid4vp-uri>                present a stored credential to a verifier
    [--only CLAIM]... [--dry-run]        disclose only these requested claims (dotted, e.g.
                                         mandatee.email; an mdoc's element name, e.g. mandatee);
                                         print what would be sent, send nothing
    [--approve] [--approve-type URN]...  sign the transaction data the verifier asks to approve
                                         (printed first); also accept this unknown type
  list                                   show the stored credentials and their status now
options: --store DIR (default ~/.credservice-wallet)  --allow-http (a local service without TLS)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'tx-code': { type: 'string' },
    configuration: { type: 'string' },
    wait: { type: 'string' },
    only: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean', default: false },
    approve: { type: 'boolean', default: false },
    'approve-type': { type: 'string', multiple: true },
    store: { type: 'string', default: path.join(os.homedir(), '.credservice-wallet') },
    'allow-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

const [command, uri] = positionals;
const needsUri = command === 'receive' || command === 'present';
if (values.help || !(needsUri || command === 'list') || (needsUri && !uri)) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}

const store = path.resolve(values.store);
const wallet = new HolderWallet({ ...fileWallet(store), http: { allowHttp: values['allow-http'] } });
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
/** What kind of credential it is: the SD-JWT VC's type, or the mdoc's doctype. */
const kindOf = (c: StoredCredential) =>
  c.format === 'mso_mdoc' ? { format: c.format, doctype: c.doctype } : { format: 'dc+sd-jwt', vct: c.vct };
/** What the verifier asks to approve, for a person to read on stderr (stdout keeps its one JSON). */
const printApprovals = (heading: string, list: TransactionData[]) => {
  console.error(heading);
  for (const t of list.map(describeTransactionData)) {
    const { type, subject, description, amount, other } = t;
    console.error(`  - ${type}${subject ? `: ${subject}` : ''}`);
    if (description) console.error(`    ${description}`);
    if (amount) console.error(`    amount: ${amount}`);
    if (other) console.error(`    ${JSON.stringify(other)}`);
  }
};

try {
  if (command === 'receive') {
    const { 'tx-code': txCode, configuration, wait } = values;
    const waitSeconds = wait === undefined ? undefined : Number(wait);
    if (waitSeconds !== undefined && !(waitSeconds > 0))
      throw new WalletError('--wait takes a number of seconds');
    const received = await wallet.receive(uri ?? '', {
      ...(txCode !== undefined ? { txCode } : {}),
      ...(waitSeconds !== undefined ? { deferredTimeoutMs: waitSeconds * 1000 } : {}),
      ...(configuration !== undefined ? { credentialConfigurationId: configuration } : {}),
    });
    const credentials = [];
    for (const c of received) {
      const status = c.statusReference ? await wallet.checkStatus(c.id) : undefined;
      credentials.push({ id: c.id, ...kindOf(c), issuer: c.issuer, status: status?.label, claims: c.claims });
    }
    print({ store, credentials });
  } else if (command === 'present') {
    const options: PresentOptions = {
      ...(values.only ? { only: values.only } : {}),
      ...(values['approve-type'] ? { transactionDataTypes: values['approve-type'] } : {}),
      // Printed as the wallet asks, so the holder sees what is signed before anything is sent.
      approve:
        values.approve &&
        ((list) => {
          printApprovals('approving:', list);
          return true;
        }),
    };
    // Which credential answers each query, and which of the requested claims go with it.
    const describe = (matches: Record<string, DcqlMatch> = {}) =>
      Object.values(matches).map((m) => ({
        query: m.queryId,
        credential: m.credential.id,
        ...kindOf(m.credential),
        claims: m.claims.map((c) => dottedPath(c.path)),
        // An mdoc discloses one data element per claim, and has no SD-JWT disclosures.
        disclosures: m.credential.format === 'mso_mdoc' ? m.claims.length : m.disclosures.length,
      }));
    if (values['dry-run']) {
      const preview = await wallet.preview(uri ?? '', options);
      const wouldApprove = preview.transactionData.map(describeTransactionData);
      print({
        verifier: preview.request.client_id,
        dry_run: true,
        would_present: describe(preview.matches),
        ...(wouldApprove.length ? { would_approve: wouldApprove } : {}),
      });
    } else {
      const result = await wallet.present(uri ?? '', options);
      const presented = describe(result.matches);
      const approved = result.transactionData.map(describeTransactionData);
      print({
        verifier: result.request.client_id,
        presented,
        ...(approved.length ? { approved } : {}),
        redirect_uri: result.redirectUri ?? null,
      });
    }
  } else {
    const credentials = [];
    for (const c of await wallet.list()) {
      // Read afresh from the issuer's status list, so that a revocation shows here.
      const status = c.statusReference
        ? await wallet.checkStatus(c.id).then(
            (s) => s.label,
            (e: Error) => `unknown (${e.message})`,
          )
        : undefined;
      const { id, issuer, receivedAt } = c;
      // An mdoc's claims are its data elements by namespace, which nothing else shows.
      const claims = c.format === 'mso_mdoc' ? { claims: c.claims } : {};
      credentials.push({ id, ...kindOf(c), issuer, receivedAt, status, ...claims });
    }
    print({ store, credentials });
  }
} catch (e) {
  if (e instanceof PresentationDeclinedError)
    console.error(`declined: no stored credential answers the request (${e.message}); the verifier was told`);
  else if (e instanceof TransactionDataNotApprovedError) {
    printApprovals('not approved: the verifier asks you to approve', e.transactionData);
    console.error('nothing was sent; run again with --approve to sign it');
  } else if (e instanceof DeferredIssuance)
    console.error(
      `deferred: the issuer has not issued yet (transaction_id ${e.transactionId}); run receive with --wait SECONDS to wait for it`,
    );
  else console.error(e instanceof WalletError ? `${e.name}: ${e.message}` : e);
  process.exit(1);
}
