import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  type DomainError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  PayloadTooLargeError,
  SecondFactorRequiredError,
  ServiceUnavailableError,
  StepUpRequiredError,
  TooManyRequestsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../shared/errors/errors.ts';
import { errorResponse } from '../../shared/http/handler.ts';
import { IncorrectCodeError, VerificationCodeGoneError } from '../../shared/identity/email-verification.ts';

// The typed errors carry a kind, no status: shared/http maps each kind to the status the API
// document states (issue 35: the statuses are unchanged by the move).
describe('domain error statuses', () => {
  const cases: Array<[DomainError, number]> = [
    [new BadRequestError('bad'), 400],
    [new IncorrectCodeError(2), 400],
    [new UnauthorizedError(), 401],
    [new StepUpRequiredError(300), 401],
    [new ForbiddenError(), 403],
    [new SecondFactorRequiredError(), 403],
    [new NotFoundError(), 404],
    [new ConflictError('taken'), 409],
    [new GoneError('SESSION_GONE', 'gone'), 410],
    [new VerificationCodeGoneError(), 410],
    [new PayloadTooLargeError(10), 413],
    [new UnsupportedMediaTypeError(), 415],
    [new ValidationError([{ field: 'a', message: 'b' }]), 422],
    [new TooManyRequestsError('slow down', 'rate_limit'), 429],
    [new ServiceUnavailableError(), 503],
  ];

  it.each(cases)('%s answers its status', (error, status) => {
    expect('status' in error).toBe(false);
    const res = errorResponse(undefined, error, 'id-1');
    expect(res.statusCode).toBe(status);
    expect(JSON.parse(String(res.body))).toMatchObject({ status: 'error', code: status });
  });
});
