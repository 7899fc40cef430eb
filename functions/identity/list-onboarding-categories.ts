import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { onboardingCategories } from '../../shared/identity/onboarding.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listOnboardingCategories, () => ok(onboardingCategories()));
