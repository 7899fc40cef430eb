import type { Statement } from '../routing/route.ts';

/**
 * What the event publisher (functions/events/worker.ts) is given beyond its row: PutEvents on the
 * stack's bus and nothing else, and the bus's name. infra/events.ts grants and sets exactly these;
 * the local platform runs the publisher with exactly these (scripts/local/event-bus.ts), so a put
 * on any other bus is refused locally as IAM would refuse it.
 */
export const publisherStatements = (busArn: string): Statement[] => [
  { actions: ['events:PutEvents'], resources: [busArn] },
];

/** The publisher's settings beyond its row's: the bus it puts on. */
export const publisherEnvironment = (busName: string): Record<string, string> => ({
  EVENT_BUS_NAME: busName,
});
