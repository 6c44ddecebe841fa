/**
 * Who may read `/reports/`: the weekly reports hold the golden set's questions, the RAG's answers and the judge's
 * reasons. Either a bearer token (`http.reportsToken`, from a Secret), or, for the links recorded in Langfuse (a
 * browser sends no header), an HMAC of the link's path under `http.reportsSigningSecret` in its `sig` parameter: no
 * expiry, so a link keeps working after a rollout, and rotating the secret revokes every link. Or no check at all,
 * when `http.reportsPublic: true` says so.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type ReportAccess =
  | { public: true }
  | {
      public: false;
      token: string;
      /** Null: no link is signed, and only the token opens a report. */
      signingSecret: string | null;
    };

/** The query parameter carrying a link's signature. */
export const SIGNATURE_PARAM = 'sig';

export function reportAccessFrom(http: {
  reportsPublic: boolean;
  reportsToken?: string | undefined;
  reportsSigningSecret?: string | undefined;
}): ReportAccess {
  if (http.reportsPublic || !http.reportsToken) return { public: true };
  return { public: false, token: http.reportsToken, signingSecret: http.reportsSigningSecret ?? null };
}

/** The signature of a report path (`/reports/<run>/report.html`): HMAC-SHA256 under the secret, base64url. */
export function reportPathSignature(secret: string, path: string): string {
  return createHmac('sha256', secret).update(path).digest('base64url');
}

/** `path` with its signature, or as it is without a secret. */
export function signedReportPath(secret: string | null | undefined, path: string): string {
  return secret ? `${path}?${SIGNATURE_PARAM}=${reportPathSignature(secret, path)}` : path;
}

/**
 * Whether the request may read `path`: the bearer token, or (for a report file, never the listing) the path's
 * signature. Compared in constant time.
 */
export function mayRead(req: IncomingMessage, url: URL, access: ReportAccess, signable: boolean): boolean {
  if (access.public) return true;
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1]?.trim();
  if (bearer !== undefined && sameText(bearer, access.token)) return true;
  const sig = url.searchParams.get(SIGNATURE_PARAM);
  if (!signable || !access.signingSecret || sig === null) return false;
  return sameText(sig, reportPathSignature(access.signingSecret, url.pathname));
}

/** Whether the request carries the token itself (then the listing may hand out signed links). */
export function hasToken(req: IncomingMessage, access: ReportAccess): boolean {
  if (access.public) return false;
  const bearer = /^Bearer\s+(.+)$/i.exec((req.headers.authorization ?? '').trim())?.[1]?.trim();
  return bearer !== undefined && sameText(bearer, access.token);
}

/** Equal texts, compared in time that does not depend on where they differ (digests of equal length). */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
