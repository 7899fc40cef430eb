import { StartViewerSessionRevocationCommand } from '@aws-sdk/client-ivs';
import { logger, recordMetric } from '../observability/index.ts';
import { viewerIdOf } from '../playback/ivs-token.ts';
import { ivsClient } from './client.ts';

/**
 * Ends an account's playback on a private channel: IVS stops serving the viewer's sessions whose
 * `aws:viewer-session-version` is at most `sessionVersion` (docs/live.md "Playback tokens").
 * Best effort: the watch session has ended in the table whatever IVS answers, and IVS allows only
 * a few revocations a second per account, so a failure (throttling after the client's retries)
 * is logged and counted (`viewer_revocations_failed`), never turned into an error for the caller.
 */
export const revokeViewerSession = async (
  channelArn: string,
  accountId: string,
  sessionVersion: number,
): Promise<boolean> => {
  try {
    await ivsClient().send(
      new StartViewerSessionRevocationCommand({
        channelArn,
        viewerId: viewerIdOf(accountId),
        viewerSessionVersionsLessThanOrEqualTo: sessionVersion,
      }),
    );
    recordMetric('viewer_revocations');
    return true;
  } catch (error) {
    const { name, message } = error as Error;
    logger.warn('viewer session revocation failed', { channelArn, error: { name, message } });
    recordMetric('viewer_revocations_failed');
    return false;
  }
};
