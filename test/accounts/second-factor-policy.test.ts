import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { errorStatusesOf } from '../../shared/http/contract.ts';
import { SecondFactorRequiredError } from '../../shared/errors/errors.ts';
import { assertCreatorSecondFactor } from '../../shared/http/middleware/step-up.ts';
import { isStudioRoute, routeKey } from '../../shared/routing/route.ts';
import { policyOf } from '../../shared/platform/access.ts';
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
        'DELETE /me/mfa/totp',
      ].sort(),
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
