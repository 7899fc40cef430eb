import { ATTRIBUTES_MAX_BYTES, attributesBytes, type MessageReviewHandler } from './rooms.ts';

/**
 * The message review handler call, as IVS Chat makes it before it delivers a message (the IVS
 * Chat user guide, "Message Review Handler"): the handler (a Lambda function on AWS; here whatever
 * `invoke` runs for its ARN) gets `{ Content, MessageId, RoomArn, Attributes, Sender: { Attributes,
 * UserId, Ip } }` and answers `{ ReviewResult: 'ALLOW' | 'DENY', Content?, Attributes? }`. An
 * error, an answer that is not of that shape, or no answer within REVIEW_TIMEOUT_MS, and the
 * room's `fallbackResult` decides (the original message, when it is ALLOW).
 */

/** IVS Chat's limit on the handler (Service Quotas: "Message review handler timeout", 200 ms). */
export const REVIEW_TIMEOUT_MS = 200;

/** Runs the function named by an ARN with a payload and answers its result (the Lambda service). */
export type Invoke = (functionArn: string, payload: unknown) => Promise<unknown>;

export interface ReviewRequest {
  Content: string;
  MessageId: string;
  RoomArn: string;
  Attributes: Record<string, string>;
  Sender: { Attributes: Record<string, string>; UserId: string; Ip: string };
}

export type Verdict =
  | { result: 'ALLOW'; content: string; attributes: Record<string, string>; fallback: boolean }
  | { result: 'DENY'; reason?: string; fallback: boolean };

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');

/** The handler's answer as a verdict, or a sentence saying why it is not a valid answer. */
const verdictOf = (answer: unknown, request: ReviewRequest, maxLength: number): Verdict | string => {
  if (typeof answer !== 'object' || answer === null) return 'the answer is not an object';
  const { ReviewResult, Content, Attributes } = answer as Record<string, unknown>;
  if (ReviewResult !== 'ALLOW' && ReviewResult !== 'DENY')
    return `ReviewResult is ${JSON.stringify(ReviewResult)}`;
  if (Content !== undefined && typeof Content !== 'string') return 'Content is not a string';
  if (
    Attributes !== undefined &&
    !(isStringRecord(Attributes) && attributesBytes(Attributes) <= ATTRIBUTES_MAX_BYTES)
  )
    return 'Attributes is not a map of strings within 1 KB';
  if (ReviewResult === 'DENY') return { result: 'DENY', reason: Attributes?.Reason, fallback: false };
  const content = Content ?? request.Content;
  if (content.length === 0 || [...content].length > maxLength)
    return `Content is empty or longer than the room's ${maxLength} characters`;
  return { result: 'ALLOW', content, attributes: Attributes ?? request.Attributes, fallback: false };
};

/**
 * Reviews one message with the room's handler. `log` hears why a fallback was taken (a developer
 * reading the `npm start` console; IVS reports these as the room's review errors).
 */
export const reviewMessage = async (options: {
  handler: MessageReviewHandler;
  invoke: Invoke;
  request: ReviewRequest;
  maxLength: number;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<Verdict> => {
  const { handler, request } = options;
  const timeoutMs = options.timeoutMs ?? REVIEW_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  const answered = options.invoke(handler.uri, request).then(
    (answer) => verdictOf(answer, request, options.maxLength),
    (error: Error) => `it failed: ${error.name}: ${error.message}`,
  );
  const outcome = await Promise.race([answered, timedOut]);
  clearTimeout(timer);
  if (typeof outcome !== 'string') return outcome;
  (options.log ?? console.warn)(
    `IVS Chat stand-in: message review handler ${handler.uri}: ${outcome}; fallbackResult ${handler.fallbackResult}`,
  );
  return handler.fallbackResult === 'ALLOW'
    ? { result: 'ALLOW', content: request.Content, attributes: request.Attributes, fallback: true }
    : { result: 'DENY', fallback: true };
};
