/** The authenticated caller, as established from a verified access token. */
export interface Principal {
  /** Account id (`creator_id` in onboarding responses). */
  accountId: string;
  /** Token id, for logging correlation; never the token itself. */
  tokenId?: string;
  /** The token's `auth_time`: when the account last proved who it is (epoch seconds); absent on older tokens. */
  authTime?: number;
  /** The token's `sid`: the refresh-token family (sign-in) it was issued for, when it has one. */
  sessionId?: string;
  /** The token's `amr` has `mfa`: its sign-in (or a step-up) passed the account's second factor. */
  secondFactor?: boolean;
  /**
   * The token's `mfa_factor`: the id of the factor its sign-in (or step-up) passed. A step-up
   * route counts the second factor as passed only for the factor enrolled now (factor-passed.ts).
   */
  secondFactorId?: string;
}

/**
 * How recent a sign-in (or step-up) must be for a sensitive action (docs/accounts.md, "Tokens and
 * step-up"): the step-up middleware's limit, and the `max_age` of its challenge.
 */
export const STEP_UP_MAX_AGE_SECONDS = 10 * 60;

const BEARER = /^Bearer\s+([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.?[A-Za-z0-9\-_.+/=]*)$/i;

/** Extracts the bearer token from an Authorization header, or undefined when absent/malformed. */
export const bearerToken = (header: string | undefined): string | undefined => {
  if (!header) return undefined;
  return BEARER.exec(header.trim())?.[1];
};
