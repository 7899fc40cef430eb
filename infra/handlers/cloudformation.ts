/**
 * What every custom resource function here shares with CloudFormation: the event it is sent and
 * the response it must PUT to the event's pre-signed URL (success with `Data`, or failure with a
 * reason), whatever resource it makes.
 */
export interface CloudFormationEvent<Properties> {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResourceType?: string;
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: Properties;
}

/** What a resource's work came to: its physical id, and the attributes it answers. */
export type Outcome = { physicalId: string; data?: Record<string, string> };

/** The CloudFormation response (a PUT to the pre-signed ResponseURL). */
export const respond = async (
  event: CloudFormationEvent<unknown>,
  outcome: Outcome | { physicalId: string; error: string },
): Promise<void> => {
  const body = JSON.stringify({
    ...('data' in outcome && outcome.data ? { Data: outcome.data } : {}),
    Status: 'error' in outcome ? 'FAILED' : 'SUCCESS',
    Reason: 'error' in outcome ? outcome.error : 'OK',
    PhysicalResourceId: outcome.physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  const response = await fetch(event.ResponseURL, {
    method: 'PUT',
    headers: { 'content-type': '' },
    body,
  });
  if (!response.ok) throw new Error(`CloudFormation response refused: ${response.status}`);
};
