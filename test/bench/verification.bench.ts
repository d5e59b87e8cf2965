import { employeePayload } from '../support/fixtures.js';
import { ThirdPartyHolder } from '../support/third-party-holder.js';
import { expectStatus } from './harness.js';
import { inParallel, type Scenario, type ScenarioContext, tenantOf } from './scenario.js';

interface CapturedResponse {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A holder whose answers are captured instead of sent: the request object is fetched and checked,
 * the presentation made and (direct_post.jwt) encrypted before the clock starts, and the measured
 * operation is the wallet's POST to the response endpoint alone.
 */
export async function capturingHolder() {
  const captured: CapturedResponse[] = [];
  const capture: typeof fetch = async (input, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return fetch(input, init);
    const request = new Request(input, init);
    captured.push({
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { holder: await ThirdPartyHolder.create(capture), captured };
}

/** One credential bound to the holder's key, issued directly: every session asks for its type. */
async function issueTo(ctx: ScenarioContext, holder: ThirdPartyHolder) {
  const issued = await tenantOf(ctx, 0).integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      holder_key: holder.holderJwk as never,
    },
  });
  if (issued.status !== 201 || !issued.body.credential) throw new Error('not issued');
  return issued.body.credential;
}

/** The name of the SD-JWT VC presentation figure in `mode` (the mdoc figures are printed beside it). */
export const presentationFigure = (mode: 'direct_post' | 'direct_post.jwt') =>
  `verifier: presentation verified (${mode}: response endpoint, full check, status list cached)`;

const presentation = (mode: 'direct_post' | 'direct_post.jwt'): Scenario => ({
  name: presentationFigure(mode),
  // An encrypted answer costs the service its decryption: the minimal pays it too.
  matches: mode === 'direct_post.jwt' ? 'verify-jwe' : 'verify',
  operations: 400,
  halfPeak: mode === 'direct_post',
  prepare: async (ctx, total) => {
    const { holder, captured } = await capturingHolder();
    const credential = await issueTo(ctx, holder);
    await inParallel(total + 1, 8, async (i) => {
      const session = await tenantOf(ctx, i).integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', response_mode: mode },
      });
      if (session.status !== 201) throw new Error(`session: ${session.status}`);
      await holder.present(session.body.authorization_request_uri, [credential]);
    });
    return replayCaptured(captured);
  },
});

/**
 * The measured operations: each a captured answer sent as the wallet would have. The last one is
 * sent now: the status list is fetched on the first check and then cached, and it warms that.
 */
export async function replayCaptured(captured: CapturedResponse[]) {
  const send = async (r: CapturedResponse) =>
    expectStatus(await fetch(r.url, { method: 'POST', headers: r.headers, body: r.body }), 200, 'present');
  await send(captured.pop() as CapturedResponse);
  return async (i: number) => send(captured[i] as CapturedResponse);
}

/** Verifier figures: sessions created, presentations verified in both response modes. */
export const verificationScenarios: Scenario[] = [
  {
    name: 'verifier: create session (POST /api/v1/authorization-request)',
    matches: 'verify',
    operations: 400,
    prepare: async (ctx) => async (i) =>
      expectStatus(
        await tenantOf(ctx, i).integrator.createAuthorizationRequest({
          body: { credential_configuration_id: 'LEARCredentialEmployee' },
        }),
        201,
        'session',
      ),
  },
  presentation('direct_post'),
  presentation('direct_post.jwt'),
];
