import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { onboardingCategories } from '../../shared/identity/onboarding.ts';

export const handler = httpHandler({}, () => ok(onboardingCategories()));
