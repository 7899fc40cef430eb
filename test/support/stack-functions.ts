import { eventPublisherRow } from '../../functions/events/worker.ts';
import { routes } from '../../functions/routes.ts';
import { fanOutRow, senderRow } from '../../functions/webhooks/workers.ts';
import {
  audienceRow,
  chatReviewRow,
  ivsEventRow,
  mediaPlaylistRow,
  projectorRow,
  rebuildRow,
  recomputeRow,
} from '../../functions/workers.ts';
import { mailFeedbackRow } from '../../functions/mail/workers.ts';
import { paymentWorkers } from '../../functions/payments/workers.ts';
import { accountJobsRow } from '../../functions/accounts/workers.ts';
import { realtimeAuthorizerRow, realtimeTickRow } from '../../functions/realtime/workers.ts';
import {
  keyPairStatements,
  runtimeCleanupStatements,
  signingPublicKeyStatements,
} from '../../infra/handlers/access.ts';
import { LOCAL_EVENT_BUS_NAME, localBusArn } from '../../scripts/local/event-bus.ts';
import { publisherStatements } from '../../shared/events/access.ts';
import { type DeployedRow, type Deployment, policyOf } from '../../shared/platform/access.ts';
import { functionKey } from '../../shared/routing/function-row.ts';
import type { CheckedFunction } from './least-privilege.ts';

/** What the custom resources' functions are recorded under when a test runs them as their function. */
export const CUSTOM_RESOURCE_KEYS = {
  signingPublicKey: 'Custom::SigningPublicKey',
  keyPair: 'Custom::IvsPlaybackKeyPair+MediaSigningKeyPair',
  runtimeCleanup: 'Custom::RuntimeCleanup',
} as const;

/**
 * The deployment the operator's rebuild runs in during the integration run: the local one with a
 * table of its own (`<table>-rebuild`, made by test/projection/rebuild-function.int.test.ts), as
 * the rebuild rewrites every view of the table it runs on and the shared table's views are what
 * the other files read. Each run has a DynamoDB Local of its own, so the name is the run's.
 */
export const rebuildTestDeployment = (d: Deployment): Deployment => ({
  ...d,
  tableName: `${d.tableName}-rebuild`,
  tableArn: `${d.tableArn}-rebuild`,
});

/**
 * Every function of the stack with the statements the stack gives it (the same derivations
 * infra/ uses), for the least-privilege report: the HTTP routes, the workers (stream readers,
 * schedules, event and queue consumers, the operator's rebuild, the media CDN's playlist origin,
 * the payments reconcile) and the custom resources'
 * functions. The local deployment's values stand for the stack's tokens.
 */
export const stackFunctions = (d: Deployment): CheckedFunction[] => {
  const of = (row: DeployedRow, kind: CheckedFunction['kind'], notExercised?: string): CheckedFunction => ({
    key: functionKey(row),
    kind,
    statements: policyOf(row, d),
    ...(notExercised ? { notExercised } : {}),
  });
  const publisher = of(eventPublisherRow, 'worker');
  return [
    ...routes.map((row) => of(row, 'route')),
    of(projectorRow, 'worker'),
    // The operator's rebuild runs as itself on a table of its own (test/projection/rebuild-function.int.test.ts):
    // its statements are the stack's derivation for that table.
    { ...of(rebuildRow, 'worker'), statements: policyOf(rebuildRow, rebuildTestDeployment(d)) },
    of(recomputeRow, 'schedule'),
    of(audienceRow, 'schedule'),
    of(ivsEventRow, 'worker'),
    of(mediaPlaylistRow, 'worker'),
    {
      ...publisher,
      statements: [...publisher.statements, ...publisherStatements(localBusArn(LOCAL_EVENT_BUS_NAME))],
    },
    of(fanOutRow, 'worker'),
    of(senderRow, 'worker'),
    of(mailFeedbackRow, 'worker'),
    // Exports and purges (test/accounts/accounts.int.test.ts runs the queue's consumer as itself).
    of(accountJobsRow, 'worker'),
    // IVS Chat's review handler (test/chat/chat.int.test.ts runs it as itself).
    of(chatReviewRow, 'worker'),
    // The realtime ticks (every 5 s in the test platform) and the Event API's authoriser
    // (test/realtime/realtime.int.test.ts connects and subscribes through it).
    of(realtimeTickRow, 'schedule'),
    of(realtimeAuthorizerRow, 'worker'),
    // The daily reconcile (test/shows/paywall.int.test.ts runs it as itself).
    ...paymentWorkers.map((row) => of(row, 'schedule')),
    {
      key: CUSTOM_RESOURCE_KEYS.signingPublicKey,
      kind: 'custom resource',
      statements: signingPublicKeyStatements(d.signingKeyArn),
    },
    {
      key: CUSTOM_RESOURCE_KEYS.keyPair,
      kind: 'custom resource',
      statements: keyPairStatements({
        ivsArnPrefix: d.ivsArnPrefix,
        playbackSecretArns: [d.playbackKeySecretArn],
        mediaSecretArns: [d.mediaKeySecretArn],
      }),
    },
    {
      key: CUSTOM_RESOURCE_KEYS.runtimeCleanup,
      kind: 'custom resource',
      statements: runtimeCleanupStatements(d.ivsArnPrefix, d.chat!.arnPrefix),
      notExercised:
        'runs only when a dev stack is deleted; test/infra/runtime-cleanup.test.ts runs its handler against the IVS and IVS Chat stand-ins',
    },
  ];
};
