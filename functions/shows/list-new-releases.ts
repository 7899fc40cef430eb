import { endpoint } from '../../shared/http/handler.ts';
import { paged } from '../../shared/http/reply.ts';
import { newReleases } from '../../shared/shows/shows.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listNewReleases, async ({ query }) =>
  paged(await newReleases(query)),
);
