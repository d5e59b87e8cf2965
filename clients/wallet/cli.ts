import { parseArgs } from 'node:util';
import { HolderWallet, inMemoryCredentialStore, inMemoryHolderCrypto, WalletError } from './src/index.js';

/**
 * A demo holder: `npx tsx clients/wallet/cli.ts receive '<offer uri>' --tx-code 123456` redeems the
 * offer, verifies the credential and prints its disclosed claims and status. Keys and credentials
 * live only as long as the process. `--allow-http` for a local service without TLS.
 */
const USAGE = `usage: npx tsx clients/wallet/cli.ts receive <offer-uri> [--tx-code CODE] [--allow-http]`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'tx-code': { type: 'string' },
    'allow-http': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

const [command, offerUri] = positionals;
if (values.help || command !== 'receive' || !offerUri) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}

const wallet = new HolderWallet({
  crypto: inMemoryHolderCrypto(),
  store: inMemoryCredentialStore(),
  http: { allowHttp: values['allow-http'] },
});

try {
  const txCode = values['tx-code'];
  const received = await wallet.receive(offerUri, txCode !== undefined ? { txCode } : {});
  for (const c of received) {
    const status = c.statusReference ? await wallet.checkStatus(c.id) : undefined;
    console.log(
      JSON.stringify({ vct: c.vct, issuer: c.issuer, status: status?.label, claims: c.claims }, null, 2),
    );
  }
} catch (e) {
  console.error(e instanceof WalletError ? `${e.name}: ${e.message}` : e);
  process.exit(1);
}
