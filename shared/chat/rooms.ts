import { CreateRoomCommand, DeleteRoomCommand } from '@aws-sdk/client-ivschat';
import { setting } from '../config.ts';
import { ivsChatClient } from './client.ts';

/**
 * A channel's IVS Chat room (docs/chat.md "Rooms"): one per channel, made with the channel and
 * closed (deleted) with it or when its creator is suspended.
 */

/**
 * What IVS does with a message when the review handler fails or runs past IVS's 200 ms (it is
 * also what the handler answers itself when its settings cannot be read in time: one behaviour
 * whoever gives up). ALLOW: a review outage keeps every channel's chat open; what slips through
 * in that window is what moderators delete by hand, and the handler's error alarm pages
 * (docs/chat.md "Fallback").
 */
export const REVIEW_FALLBACK = 'ALLOW' as const;

/** IVS's own caps on every room: message length (characters, IVS's maximum) and rate (room-wide). */
export const ROOM_LIMITS = { maximumMessageLength: 500, maximumMessageRatePerSecond: 10 } as const;

/**
 * Creates the creator's room: the review handler with the stated fallback, the logging
 * configuration, IVS's caps; named after the creator and tagged with it and the stage (how the
 * stack's teardown finds the rooms its API made, infra/handlers/runtime-cleanup.ts). Its ARN.
 */
export const createRoom = async (creatorId: string): Promise<string> => {
  const made = await ivsChatClient().send(
    new CreateRoomCommand({
      name: creatorId,
      ...ROOM_LIMITS,
      messageReviewHandler: { uri: setting('CHAT_REVIEW_HANDLER_ARN'), fallbackResult: REVIEW_FALLBACK },
      loggingConfigurationIdentifiers: [setting('CHAT_LOGGING_CONFIGURATION_ARN')],
      tags: { creator_id: creatorId, stage: setting('STAGE') },
    }),
  );
  if (!made.arn) throw new Error('IVS Chat CreateRoom answered without the room');
  return made.arn;
};

/** Deletes a room (its connections end); one already gone counts as deleted. */
export const deleteRoom = async (roomArn: string): Promise<void> => {
  try {
    await ivsChatClient().send(new DeleteRoomCommand({ identifier: roomArn }));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
};
