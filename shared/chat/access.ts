import type { FunctionRow } from '../routing/function-row.ts';

/**
 * What a row's `ivsChat` actions grant and set (called by shared/platform/access.ts, so the stack
 * and the local platform derive them the same way). Every IVS Chat action the code calls is
 * authorized on the room resource type only (the Service Authorization Reference: CreateRoom,
 * DeleteRoom, UpdateRoom, CreateChatToken, DeleteMessage, DisconnectUser, SendEvent all list
 * `room`, required, and no dependent actions; CreateRoom is not authorized on the logging
 * configuration it names). The reference's operations table maps CreateRoom to
 * `ivschat:CreateRoom` AND `ivschat:TagResource` (tag on create: rooms are made with tags), so a
 * row that creates rooms gets TagResource on them too, and the local guard asks for both
 * (scripts/local/aws.ts `TAG_ON_CREATE`). Rooms are made at run time,
 * so by ARN pattern `room/*` of the account and region. CreateRoom also sets the two ARNs every
 * room names: the review handler and the logging configuration (infra/chat.ts).
 */
export interface ChatDeployment {
  /** `arn:aws:ivschat:<region>:<account>`. */
  arnPrefix: string;
  /** The message review handler (a Lambda function ARN) every room calls. */
  reviewHandlerArn: string;
  /** The logging configuration every room writes its messages to. */
  loggingConfigurationArn: string;
}

const uses = (row: FunctionRow, chat: ChatDeployment | undefined): ChatDeployment | undefined => {
  if (!row.ivsChat?.length) return undefined;
  if (!chat)
    throw new Error(
      `Function ${row.handler} calls IVS Chat but the deployment has no chat settings (infra/chat.ts)`,
    );
  return chat;
};

/** `ivschat:<action>` on the account's rooms, for the actions the row names. */
export const chatStatements = (row: FunctionRow, deployment: ChatDeployment | undefined) => {
  const chat = uses(row, deployment);
  if (!chat) return [];
  const actions = new Set<string>(row.ivsChat);
  if (actions.has('CreateRoom')) actions.add('TagResource');
  return [
    {
      actions: [...actions].sort().map((action) => `ivschat:${action}`),
      resources: [`${chat.arnPrefix}:room/*`],
    },
  ];
};

/** With CreateRoom: the review handler and logging configuration every room names. */
export const chatEnvironment = (
  row: FunctionRow,
  deployment: ChatDeployment | undefined,
): Record<string, string> => {
  const chat = uses(row, deployment);
  if (!chat || !row.ivsChat?.includes('CreateRoom')) return {};
  return {
    CHAT_REVIEW_HANDLER_ARN: chat.reviewHandlerArn,
    CHAT_LOGGING_CONFIGURATION_ARN: chat.loggingConfigurationArn,
  };
};

/** Placeholders for `settingsOf` (names only). */
export const CHAT_PLACEHOLDERS: ChatDeployment = {
  arnPrefix: 'x',
  reviewHandlerArn: 'x',
  loggingConfigurationArn: 'x',
};
