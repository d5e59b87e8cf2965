import { z } from 'zod';
import { PresentationSessionStatus } from '../verification/authorization-request.js';

/** The status of a presentation session, as the login page's event stream reports it. */
export const LoginStatus = z.object({
  session_id: z.string(),
  status: PresentationSessionStatus,
});

export const LoginEventsQuery = z.object({
  state: z.string().describe('The session id the login page shows'),
});

/**
 * One message of GET /api/login/events (text/event-stream): `event: status` with the status as JSON
 * in `data`, once at once and again on every change; the stream ends after verified, failed or
 * expired, not after awaiting_redirect (the redirect's response code is still to be redeemed).
 * While it waits, a comment line (`: heartbeat`) every 15 seconds keeps proxies from closing it.
 * Never claims, only the status.
 */
export const LoginStatusEvent = z
  .object({
    event: z.literal('status'),
    data: LoginStatus.describe('JSON, on one data line'),
  })
  .describe('One server-sent event; the stream is a sequence of these');
