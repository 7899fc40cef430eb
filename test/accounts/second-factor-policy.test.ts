import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { errorStatusesOf } from '../../shared/http/contract.ts';
import { SecondFactorRequiredError } from '../../shared/errors/errors.ts';
import { assertCreatorSecondFactor } from '../../shared/http/middleware/step-up.ts';
import { isStudioRoute, routeKey } from '../../shared/routing/route.ts';
import { dynamoActionsOf, policyOf } from '../../shared/platform/access.ts';
import { localDeployment } from '../../scripts/local/aws.ts';

const caller = (secondFactor: boolean) => ({ accountId: 'acc_1', secondFactor });

afterEach(() => {
  delete process.env.CREATOR_SECOND_FACTOR;
});

describe("the operator's creator second-factor setting", () => {
  it('refuses a sign-in without the second factor only when the function is told `required`', () => {
    expect(() => assertCreatorSecondFactor(caller(false))).not.toThrow();
    process.env.CREATOR_SECOND_FACTOR = 'prompt';
    expect(() => assertCreatorSecondFactor(caller(false))).not.toThrow();
    process.env.CREATOR_SECOND_FACTOR = 'required';
    expect(() => assertCreatorSecondFactor(caller(false))).toThrow(SecondFactorRequiredError);
    expect(() => assertCreatorSecondFactor(caller(true))).not.toThrow();
    const error = new SecondFactorRequiredError();
    expect([error.kind, error.reason]).toEqual(['forbidden', 'second_factor_required']);
  });

  it('is documented as a 403 on every studio route, and every sensitive action asks for a step-up', () => {
    const studio = routes.filter(isStudioRoute);
    expect(studio.length).toBeGreaterThan(20);
    for (const row of studio) {
      const forbidden = errorStatusesOf(row).find((entry) => entry.status === 403);
      expect(forbidden?.description, `${row.method} ${row.path}`).toContain('second_factor_required');
    }
    const stepUp = routes.filter((row) => row.stepUp).map((row) => `${row.method} ${row.path}`);
    expect(stepUp.sort()).toEqual(
      [
        'GET /studio/channel',
        'POST /studio/channel',
        'POST /studio/channel/stream-key/rotate',
        'POST /studio/payouts/onboarding',
        'PUT /studio/plan',
        'POST /me/password',
        'POST /me/email',
        'DELETE /me',
        'POST /me/mfa/totp',
        'POST /me/mfa/totp/recovery-codes',
        'DELETE /me/mfa/totp',
      ].sort(),
    );
  });
});

describe('step-up and an active second factor', () => {
  // The step-up middleware reads only the token, and a sign-in from just before the enrolment has
  // a recent auth_time without amr: each step-up route's handler asks the factor itself
  // (shared/identity/factor-passed.ts), or, for the factor's own routes, its write does.
  const byTheirOwnWrite: Record<string, string> = {
    'POST /me/mfa/totp': 'an active factor refuses a new enrolment (putPendingTotp, 409)',
    'DELETE /me/mfa/totp': 'the conditional delete removes an active factor only for a token with amr',
  };
  it('every step-up route checks the factor, and may read it', () => {
    const stepUp = routes.filter((row) => row.stepUp);
    expect(stepUp.length).toBeGreaterThan(5);
    for (const row of stepUp) {
      const key = routeKey(row);
      if (byTheirOwnWrite[key]) continue;
      const source = readFileSync(
        resolve(import.meta.dirname, '../../functions', `${row.handler}.ts`),
        'utf8',
      );
      expect(source, key).toMatch(/\b(assertFactorPassed|readWithFactorPassed)\(/);
      expect(dynamoActionsOf(row), key).toContain('dynamodb:GetItem');
    }
    expect(Object.keys(byTheirOwnWrite).every((key) => stepUp.some((row) => routeKey(row) === key))).toBe(
      true,
    );
  });
});

describe('the TOTP key', () => {
  it('may be used to encrypt by enrolment only, to decrypt by the code checks only, by no function for both', () => {
    const d = localDeployment();
    const keyArn = d.secondFactor!.keyArn;
    const uses = Object.fromEntries(
      routes.flatMap((row) => {
        const actions = policyOf(row, d)
          .filter((statement) => statement.resources.includes(keyArn))
          .flatMap((statement) => statement.actions);
        return actions.length > 0 ? [[routeKey(row), actions]] : [];
      }),
    );
    expect(uses).toEqual({
      'POST /me/mfa/totp': ['kms:Encrypt'],
      'POST /me/mfa/totp/confirm': ['kms:Decrypt'],
      'POST /auth/mfa': ['kms:Decrypt'],
      'POST /auth/step-up': ['kms:Decrypt'],
    });
  });
});
