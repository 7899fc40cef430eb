import { type AuthorizerEvent, authorizeSubscriber } from '../../shared/realtime/authorizer.ts';

/** The Event API's Lambda authoriser (functions/realtime/workers.ts `realtimeAuthorizerRow`). */
export const handler = async (event: AuthorizerEvent) => authorizeSubscriber(event, new Date());
