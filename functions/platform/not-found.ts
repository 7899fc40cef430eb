import { NotFoundError } from '../../shared/http/errors.ts';
import { httpHandler } from '../../shared/http/handler.ts';

export const handler = httpHandler({}, () => {
  throw new NotFoundError('No route matches this method and path');
});
