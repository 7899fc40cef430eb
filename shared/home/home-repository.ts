import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { tableName } from '../db/table.ts';

/**
 * The home screen layout is stored configuration, not code: one item, PK `HOME`, SK `LAYOUT`,
 * holding the ordered sections. Editing that item changes `GET /home` without a deployment.
 * The catalogue loader writes the default layout (shared/home/default-layout.ts).
 */
export const HOME_SECTION_TYPES = [
  'hero',
  'live_now',
  'most_viewed',
  'creators_row',
  'category_row',
  /** Added per request for signed-in viewers, never stored. */
  'continue_watching',
] as const;
export type HomeSectionType = (typeof HOME_SECTION_TYPES)[number];

/** One stored section (the `GET /home` item shape, spec 4.1). */
export interface HomeSection {
  type: HomeSectionType;
  position: number;
  title: string | null;
  /** Request path of the endpoint that fills the section (may carry a query string). */
  path: string;
  /** hero only. */
  autoplay?: boolean;
  /** hero only. */
  autoplay_interval_seconds?: number;
  /** category_row only. */
  category_id?: string;
}

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
