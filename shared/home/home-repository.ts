import { GetCommand } from '../db/document.ts';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';
import type { HomeSection } from './schemas.ts';

/**
 * The home screen layout is stored configuration, not code: one item, PK `HOME`, SK `LAYOUT`,
 * holding the ordered sections. Editing that item changes `GET /home` without a deployment.
 * The catalogue loader writes the default layout (shared/home/default-layout.ts). The stored
 * sections have the response shape (`HomeSection`, shared/home/schemas.ts).
 */
export interface HomeLayout {
  sections: HomeSection[];
  updated_at: string;
}

const key = { PK: 'HOME', SK: 'LAYOUT' };

/** The layout item (what the loader, or an operator, writes). */
export const homeLayoutItems = (layout: HomeLayout): Record<string, unknown>[] => [
  { ...key, entity: 'home_layout', ...layout },
];

/** The stored layout (one GetItem), or undefined when none has been written. */
export const getHomeLayout = async (): Promise<HomeLayout | undefined> => {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: key }));
  if (!result.Item) return undefined;
  return { sections: result.Item.sections as HomeSection[], updated_at: String(result.Item.updated_at) };
};
