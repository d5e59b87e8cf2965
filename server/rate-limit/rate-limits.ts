import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SharedState } from '../ephemeral/shared-state.js';
import { addressKey } from './client-address.js';
import { createLimiter, type Limiter } from './limiter.js';
import type { RateLimitSettings } from './rate-limit-settings.js';
import { sendTooManyRequests } from './too-many-requests.js';

export interface RateLimits {
  /** Before every route: limits per client address. */
  byAddress: RequestHandler;
  /**
   * Where the tenant is known (after the integrator guard) or in the path (SCIM, before its guard):
   * limits per tenant. Only authenticated requests count, so nobody can use up a tenant's allowance
   * with requests that carry no token of it.
   */
  byTenant: RequestHandler;
}

const UNLIMITED = ['/healthz', '/readyz'];
const TOKEN_ENDPOINTS = ['/oid4vci/v1/token', '/oauth2/token'];

const guarded =
  (handler: (req: Request, res: Response) => Promise<boolean>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).then((go) => go && next(), next);
  };

export function rateLimits(settings: RateLimitSettings, shared: SharedState): RateLimits {
  const make = (name: string, points: number, seconds: number) =>
    points > 0 ? createLimiter(shared, name, points, seconds) : undefined;
  const address = make('address', settings.RATE_LIMIT_ADDRESS_PER_MINUTE, 60);
  const token = make('token', settings.RATE_LIMIT_TOKEN_PER_MINUTE, 60);
  const signIn = make('sign-in', settings.RATE_LIMIT_SIGN_IN_PER_MINUTE, 60);
  const admin = make('admin', settings.RATE_LIMIT_ADMIN_PER_MINUTE, 60);
  // Every failed pre-authorized code redemption of an address (a wrong tx_code above all), across
  // all offers: an offer locks after five wrong codes, this bounds guessing over many offers.
  const redeemFailures = make('redeem-failures', settings.RATE_LIMIT_TX_CODE_FAILURES_PER_HOUR, 3600);
  const tenantLimiters = new Map<number, Limiter | undefined>();
  const tenantLimiter = (tenantId: string) => {
    const points =
      settings.RATE_LIMIT_TENANT_OVERRIDES.get(tenantId) ?? settings.RATE_LIMIT_TENANT_PER_MINUTE;
    if (!tenantLimiters.has(points)) tenantLimiters.set(points, make(`tenant-${points}`, points, 60));
    return tenantLimiters.get(points);
  };

  const byAddress = guarded(async (req, res) => {
    if (UNLIMITED.includes(req.path)) return true;
    const key = addressKey(req);
    const tokenRequest = req.method === 'POST' && TOKEN_ENDPOINTS.includes(req.path);
    const checks: [Limiter | undefined, string][] = [[address, 'requests from this address']];
    if (tokenRequest) checks.push([token, 'token requests from this address']);
    if (req.method === 'GET' && req.path === '/oauth2/authorize')
      checks.push([signIn, 'sign-ins started from this address']);
    if (req.path.startsWith('/admin/')) checks.push([admin, 'admin requests from this address']);
    if (tokenRequest)
      checks.push([redeemFailures, 'failed code redemptions (wrong tx_codes) from this address']);
    for (const [limiter, what] of checks) {
      const verdict = limiter ? await limiter.consume(key) : { allowed: true as const };
      if (!verdict.allowed) {
        sendTooManyRequests(req, res, verdict.retryAfterSeconds, what);
        return false;
      }
    }
    // A token request counts as a failed redemption until it is known not to be one: counted first,
    // so that a burst of guesses sent at once is bounded too, and given back unless the grant marked
    // a wrong code or tx_code (a DPoP nonce round trip, another grant type or a success costs nothing).
    if (redeemFailures && tokenRequest)
      res.on('finish', () => !res.locals.failedRedemption && void redeemFailures.refund(key));
    return true;
  });

  const byTenant = guarded(async (req, res) => {
    const known = req.principal?.tenantId;
    const tenantId = known ?? req.params.tenant;
    const limiter = tenantId ? tenantLimiter(tenantId) : undefined;
    if (!tenantId || !limiter) return true;
    const verdict = known ? await limiter.consume(tenantId) : await limiter.peek(tenantId);
    if (!verdict.allowed) {
      sendTooManyRequests(req, res, verdict.retryAfterSeconds, 'requests of this tenant');
      return false;
    }
    // The guard comes later (SCIM): count the request once it has proven to be the tenant's.
    if (!known)
      res.on('finish', () => req.principal?.tenantId === tenantId && void limiter.consume(tenantId));
    return true;
  });
  return { byAddress, byTenant };
}
