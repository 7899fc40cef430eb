import { worker } from '../../shared/platform/worker.ts';
import { type AuthorizerEvent, authorizeSubscriber } from '../../shared/realtime/authorizer.ts';
import { realtimeAuthorizerRow } from './workers.ts';

/** The Event API's Lambda authoriser (functions/realtime/workers.ts `realtimeAuthorizerRow`). */
export const handler = worker(realtimeAuthorizerRow, async (event: AuthorizerEvent) =>
  authorizeSubscriber(event),
);
