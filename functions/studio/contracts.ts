import type { Contract } from '../../shared/http/contract.ts';

/** The creator studio's shows and episodes (issue 16): filled in by the next commit. */
export const studioContracts: readonly Contract[] = [];
