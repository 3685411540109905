// One delivery attempt (docs/webhooks.md): the event POSTed as JSON, signed as the Standard
// Webhooks specification says, with the `standardwebhooks` package (the one receivers verify
// with): `webhook-id` (the event's id, the same on every attempt), `webhook-timestamp` (this
// attempt's, in seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`; two of them, space
// separated, while a rotated secret still signs). The connection goes only to an address that
// passes the endpoint rules (domain/events/endpoint-url.ts), checked on what DNS answers now.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AttemptOutcome, DeliveryJob } from '../domain/events/deliveries.js';
import { addressAllowed } from '../domain/events/endpoint-url.js';
import { EVENTS_API_VERSION } from '../domain/events/types.js';

/** An endpoint that has not answered in this long has failed this attempt. */
export const SEND_TIMEOUT_MS = 10_000;
/** Bytes of the answer kept for the attempt's error (and read at all). */
const ANSWER_BYTES = 300;

/** The event as every delivery (and the NATS stream) carries it. */
export const eventBody = (e: {
  id: string;
  type: string;
  createdAt: Date;
  environment: string;
  data: unknown;
}) =>
  JSON.stringify({
    id: e.id,
    type: e.type,
    created_at: e.createdAt.toISOString(),
    environment: e.environment,
    api_version: EVENTS_API_VERSION,
    data: e.data,
  });

/** The signature header: one `v1,…` per secret that signs now. */
export function signatureOf(job: DeliveryJob, body: string, at: Date): string {
  const secrets = [job.secret];
  if (job.previousSecret && job.previousExpiresAt && job.previousExpiresAt > at)
    secrets.push(job.previousSecret);
  return secrets.map((s) => new Webhook(s).sign(job.eventId, at, body)).join(' ');
}

class RefusedAddress extends Error {}

/** DNS, then the endpoint rules on every address it gave; the first allowed one is used. */
const guardedLookup =
  (environment: DeliveryJob['environment']): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = addresses.filter((a) => addressAllowed(a.address, environment));
      if (!allowed.length) {
        return callback(
          new RefusedAddress(
            `${hostname} resolves to ${addresses.map((a) => a.address).join(', ')}: not a public address`,
          ),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all) return callback(null, allowed as never, 0);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };

export async function sendDelivery(
  job: DeliveryJob,
  now: () => Date,
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const at = now();
  const started = performance.now();
  const body = eventBody({
    id: job.eventId,
    type: job.type,
    createdAt: job.eventCreatedAt,
    environment: job.environment,
    data: job.data,
  });
  const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    at,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let url: URL;
  try {
    url = new URL(job.url);
  } catch {
    return done(null, 'The endpoint URL is not valid.');
  }
  // A literal IP skips DNS (and our lookup): check it here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (/^[\d.]+$|:/.test(host) && !addressAllowed(host, job.environment))
    return done(null, `${host} is not a public address.`);
  return new Promise<AttemptOutcome>((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(job.environment),
        timeout: timeoutMs,
        agent: false, // no pooled socket: every attempt's address is checked
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'PartnerRewards-Webhooks/1',
          'webhook-id': job.eventId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatureOf(job, body, at),
        },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (answer.length < ANSWER_BYTES) answer += chunk;
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve(
            status >= 200 && status < 300
              ? done(status, null)
              : done(status, `HTTP ${status}${answer ? `: ${answer.slice(0, ANSWER_BYTES)}` : ''}`),
          );
        });
        response.on('error', (error) => resolve(done(status(response), error.message)));
      },
    );
    // The whole attempt, not only idle time, is bounded.
    const timer = setTimeout(
      () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
    request.on('timeout', () =>
      request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`)),
    );
    request.on('error', (error) => resolve(done(null, error.message)));
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

const status = (response: http.IncomingMessage) => response.statusCode ?? null;
