import { NotFoundError } from '../../shared/errors/errors.ts';
import { endpoint } from '../../shared/http/handler.ts';
import * as contracts from './contracts.ts';

export const handler = endpoint(contracts.notFound, () => {
  throw new NotFoundError('No route matches this method and path');
});
