import { creatorCategories } from '../../shared/creators/creators.ts';
import { endpoint } from '../../shared/http/handler.ts';
import { ok } from '../../shared/http/reply.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.listCategories, async () => ok(await creatorCategories()));
