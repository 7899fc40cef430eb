import { GetCommand, PutCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * Addresses mail is no longer sent to (docs/identity.md, "E-mail delivery"): the entity module of
 * the suppression item, one per address, PK `UNDELIVERABLE#<trimmed lower-case address>`, SK
 * `MAIL`, written by the mail feedback worker when SES reports a permanent bounce or a complaint,
 * read by the mailer before every send. Kept until an operator deletes it (a complaint does not expire).
 */
export interface Suppression {
  address: string;
  /** Why: `bounce` (permanent) or `complaint`. */
  reason: 'bounce' | 'complaint';
  /** When SES reported it. */
  reported_at: string;
}

const normalize = (address: string) => address.trim().toLowerCase();
const suppressionKey = (address: string) => ({ PK: `UNDELIVERABLE#${normalize(address)}`, SK: 'MAIL' });

/** Is `address` marked undeliverable? One GetItem. */
export const isUndeliverable = async (address: string): Promise<boolean> =>
  Boolean((await db.send(new GetCommand({ TableName: tableName(), Key: suppressionKey(address) }))).Item);

/** Marks `address` undeliverable (idempotent: a later report overwrites the earlier one). */
export const markUndeliverable = async (suppression: Suppression): Promise<void> => {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...suppressionKey(suppression.address),
        entity: 'mail-suppression',
        ...suppression,
        address: normalize(suppression.address),
      },
    }),
  );
};
