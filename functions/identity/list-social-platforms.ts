import { httpHandler } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import { socialPlatforms } from '../../shared/identity/onboarding.ts';

export const handler = httpHandler({}, () => ok(socialPlatforms()));
